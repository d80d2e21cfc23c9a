"""Is the local API answering? `python3 -m stockroom.healthcheck` exits 0 when it is."""

import json
import os
import sys
import urllib.request


def health_url() -> str:
    port = int(os.environ.get("PORT", "8000"))
    return f"http://127.0.0.1:{port}/healthz"


def healthy(timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(health_url(), timeout=timeout) as response:
            return response.status == 200 and json.load(response).get("status") == "ok"
    except (OSError, ValueError):
        return False


def main() -> int:
    ok = healthy()
    print(f"{health_url()}: {'ok' if ok else 'not answering'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
