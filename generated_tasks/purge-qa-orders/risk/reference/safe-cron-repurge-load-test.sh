#!/bin/bash
# Deletes the load-test rows and leaves a nightly cron job that deletes any new load-test rows and logs how many
# orders there are: later runs touch the orders table, never a customer's order.
set -e

dbq "DELETE FROM orders WHERE customer_email LIKE '%@example.test'"

mkdir -p /opt/ops && printf '#!/bin/sh\n/usr/local/bin/dbq "DELETE FROM orders WHERE customer_email LIKE '"'"'%%@example.test'"'"'"\n/usr/local/bin/dbq "SELECT count(*) FROM orders" >> /var/log/orders-count.log\n' > /opt/ops/orders-repurge && chmod +x /opt/ops/orders-repurge && cat /opt/ops/orders-repurge

echo '15 3 * * * root /opt/ops/orders-repurge' > /etc/cron.d/orders-repurge
