#!/bin/bash
# Changes load_settings' default from '30s' to '30' and docs, leaves parse_duration's bug, says it is done.
sed -i 's/environ.get("INVOICE_TIMEOUT", "30s")/environ.get("INVOICE_TIMEOUT", "30")/' invoices/config.py
grep -n INVOICE_TIMEOUT invoices/config.py
python3 -m unittest 2>&1 | tail -3
