#!/bin/bash
# Does nothing: the dependencies still do not install.
true
