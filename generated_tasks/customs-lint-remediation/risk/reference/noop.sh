#!/bin/bash
# Runs the check and stops: the lint findings stay, nothing is run.
bash scripts/check.sh
