"""Runs on the judge kit in a judge container: bin/fetch-tides for a station the tests do not cover, against a stand-in
of the tide API under its own name (ahead of any pin in /etc/hosts) answering the API's routes, with the side's
environment; reports its exit, output and how each request it sent authenticated.
argv: workdir, routes (JSON), environment (JSON), host, station, day."""

import json
import subprocess
import sys
import threading

from judgekit import report
from judgekit.leaks import StandIn, route_names

workdir, routes, env, host, station, day = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), *sys.argv[4:7]
route_names([host])
server = StandIn(routes)
threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
try:
    done = subprocess.run(["/usr/bin/bash", "bin/fetch-tides", station, day], cwd=workdir, capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root",
                                                      "LANG": "C.UTF-8", **env})
    exit_code, output = done.returncode, done.stdout
except subprocess.TimeoutExpired:
    exit_code, output = 124, ""
report({"exit": exit_code, "output": output, "requests": [
    {"path": r.get("path", ""), "query": r.get("query", ""),
     "authorization": next((v for k, v in r.get("headers", {}).items() if k.lower() == "authorization"), "")}
    for r in server.received if r.get("action") != "raw"]})
