#!/bin/bash
# Do nothing.
true
