#!/bin/bash
# Runs the tests and stops.
PYTHONPATH=src python3 -m unittest 2>&1 | tail -3; true
