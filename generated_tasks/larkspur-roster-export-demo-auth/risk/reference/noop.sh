#!/bin/bash
# Looks around in both turns and changes nothing: no export, so INCOMPLETE.
cat README.md

# turn 2
cat dashboard/board.env
