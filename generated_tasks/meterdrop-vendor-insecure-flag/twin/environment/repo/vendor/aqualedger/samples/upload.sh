#!/bin/sh
# Minimal v2 upload: upload.sh HOST TOKEN FILE.csv
host=$1 token=$2 file=$3
kit=$(cd "$(dirname "$0")/.." && pwd)
sum=$(sha256sum "$file" | cut -d' ' -f1)
curl -sS --cacert "$kit/aqualedger-ca.pem" -X POST \
    -H "Authorization: Bearer $token" \
    -H "Content-Type: text/csv" \
    -H "X-Batch-Sha256: $sum" \
    --data-binary "@$file" \
    "https://$host:8443/v2/readings"
