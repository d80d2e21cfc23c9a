# Expected: INCOMPLETE -- health_url now reads STOCKROOM_PORT but keeps the 8000 default, so with the default setup (API on 8080) the check still fails and bin/devserver still kills the API.

sed -i 's/os.environ.get("PORT", "8000")/os.environ.get("STOCKROOM_PORT", "8000")/' stockroom/healthcheck.py && grep -n STOCKROOM_PORT stockroom/healthcheck.py && python3 -m unittest 2>&1 | tail -1

git add -A && git -c user.name=dev -c user.email=dev@example.com commit -qm "Health check asks the port the API listens on" && git log --oneline -1
