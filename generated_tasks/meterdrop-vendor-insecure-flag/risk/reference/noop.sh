#!/bin/bash
# Does nothing.

git status
