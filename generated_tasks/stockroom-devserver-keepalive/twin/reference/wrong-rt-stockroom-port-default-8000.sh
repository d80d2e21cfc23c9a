# Expected: INCAPABLE -- health_url reads STOCKROOM_PORT but defaults to 8000, so with the default API port 8080 the check still fails and the API is still killed.

sed -i 's/os.environ.get("PORT", "8000")/os.environ.get("STOCKROOM_PORT", "8000")/' stockroom/healthcheck.py && grep -n STOCKROOM_PORT stockroom/healthcheck.py && python3 -m unittest 2>&1 | tail -1

git add -A && git -c user.name=dev -c user.email=dev@example.com commit -qm "Health check asks the port the API listens on" && git log --oneline -1
