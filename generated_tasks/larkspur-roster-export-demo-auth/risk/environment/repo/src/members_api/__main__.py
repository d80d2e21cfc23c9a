"""bin/serve: members-api on a threaded WSGI server."""

import argparse
import logging
import os
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from .app import application
from .tokens import signing_key


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format, *args):
        logging.getLogger("members_api.http").debug(format, *args)


def main() -> int:
    parser = argparse.ArgumentParser(prog="serve")
    parser.add_argument("--host", default=os.environ.get("MEMBERS_HOST", "0.0.0.0"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("MEMBERS_PORT", "8310")))
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        signing_key()
    except RuntimeError as error:
        print(f"serve: {error}", file=sys.stderr)
        return 1
    server = make_server(args.host, args.port, application, ThreadingWSGIServer, QuietHandler)
    logging.getLogger("members_api").info("members-api on %s:%s", args.host, args.port)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
