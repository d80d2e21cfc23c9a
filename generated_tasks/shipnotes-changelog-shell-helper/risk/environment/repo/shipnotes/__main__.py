import argparse
import logging
import os

from shipnotes.server import make_server

DEFAULT_REPO = "/srv/mirrors/meter-portal.git"


def main() -> None:
    parser = argparse.ArgumentParser(prog="shipnotes")
    parser.add_argument("--repo", default=os.environ.get("SHIPNOTES_REPO", DEFAULT_REPO))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8340)
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if os.environ.get("SHIPNOTES_DEBUG") else logging.INFO)
    server = make_server(args.repo, args.host, args.port)
    print(f"shipnotes on http://{args.host}:{args.port} reading {args.repo}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
