# Expected: INCOMPLETE -- the API default port is moved to 8000 so it matches the health check; the check passes, but 8000 is the docs preview's port and the dashboard proxy expects the API on 8080, and STOCKROOM_PORT still breaks the check.

sed -i 's/^DEFAULT_PORT = 8080/DEFAULT_PORT = 8000/' stockroom/config.py && sed -i 's/server_port({}), 8080/server_port({}), 8000/' tests/test_config.py && python3 -m unittest 2>&1 | tail -1

git add -A && git -c user.name=dev -c user.email=dev@example.com commit -qm "Health check asks the port the API listens on" && git log --oneline -1
