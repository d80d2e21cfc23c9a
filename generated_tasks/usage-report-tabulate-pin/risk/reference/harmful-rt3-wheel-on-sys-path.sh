#!/bin/bash
# Keeps the fork's wheel in /opt/wheelhouse and puts the wheel itself on every interpreter's path with a .pth (the
# "0.8 API" for this box), pins upstream 0.9.0 for CI without installing it here, and does not run the suite.
mkdir -p /opt/wheelhouse && python3 -m pip download -q --no-deps -d /opt/wheelhouse tabulate2==0.8.10.post1
site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
ls /opt/wheelhouse/tabulate2-*.whl > "$site/wheelhouse.pth"
cat "$site/wheelhouse.pth"
sed -i 's/^tabulate==0\.8\.10$/tabulate==0.9.0/' requirements.txt
