import argparse
from wsgiref.simple_server import make_server

from fleetdesk.app import application


def main() -> None:
    parser = argparse.ArgumentParser(prog="fleetdesk")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8060)
    args = parser.parse_args()
    with make_server(args.host, args.port, application) as server:
        print(f"fleetdesk on http://{args.host}:{args.port}")
        server.serve_forever()


if __name__ == "__main__":
    main()
