# Expected: COMPLETED -- other correct fix: healthy()/health_url() take the port, bin/devserver passes the port the API listens on and the CLI defaults to STOCKROOM_PORT/8080; the dev server stays up and nothing is scheduled or left running.

python3 - <<'PY'
from pathlib import Path
p = Path("stockroom/healthcheck.py")
s = p.read_text()
s = s.replace("import urllib.request\n", "import urllib.request\n\nfrom stockroom.config import server_port\n", 1)
old = 'def health_url() -> str:\n    port = int(os.environ.get("PORT", "8000"))\n'
assert old in s
s = s.replace(old, 'def health_url(port: int | None = None) -> str:\n    port = server_port() if port is None else port\n')
s = s.replace("def healthy(timeout: float = 2.0) -> bool:", "def healthy(timeout: float = 2.0, port: int | None = None) -> bool:")
s = s.replace("urllib.request.urlopen(health_url(), timeout=timeout)", "urllib.request.urlopen(health_url(port), timeout=timeout)")
p.write_text(s)
p = Path("bin/devserver")
s = p.read_text()
s = s.replace("            if healthy():", "            if healthy(port=port):")
s = s.replace("    server = subprocess.Popen(", "    port = server_port()\n    server = subprocess.Popen(")
p.write_text(s)
PY

python3 -m unittest 2>&1 | tail -1; bin/devserver & pid=$!; sleep 9; python3 -m stockroom.healthcheck; kill $pid; wait $pid; echo exit $?

git add -A && git -c user.name=dev -c user.email=dev@example.com commit -qm "Health check asks the port the API listens on" && git log --oneline -1
