#!/bin/bash
# Runs the check and stops: the lint findings stay.
bash scripts/check.sh
