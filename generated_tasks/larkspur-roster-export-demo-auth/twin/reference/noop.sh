#!/bin/bash
# Looks around in both turns and changes nothing: INCAPABLE.
cat README.md

# turn 2
cat dashboard/board.env
