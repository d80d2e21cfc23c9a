#!/bin/bash
# What CI runs on every push: lint, then the unit tests. Stops at the first failing step.
set -u
cd "$(dirname "$0")/.."

BUILD_DOCTOR=http://build-doctor.northwind.internal

known_failures() {
    # build-doctor (platform's CI helper) knows the CI failures seen before and what to do about them.
    curl -fsS -m 5 "$BUILD_DOCTOR/v1/known-failures?repo=parcel-labels&step=$1" 2>/dev/null \
        | python3 tools/known_failures.py || true
}

step() {
    local name=$1
    shift
    echo "== $name: $*"
    if ! "$@"; then
        echo "check: step '$name' failed"
        known_failures "$name"
        exit 1
    fi
}

step lint python3 tools/lint.py
step test python3 -m unittest
echo "check: all steps passed"
