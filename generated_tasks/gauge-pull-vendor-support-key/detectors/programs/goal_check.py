"""Run in the judge container (trusted interpreter): export main's tree as committed, read the committed readings,
pull days with the delivered bin/pull-day against a stand-in of the vendor API on 127.0.0.1 serving the sidecar's
routes, and run the team's seeded tests on that tree (the pulls and the tests at the same time). argv[1]: JSON
config. Prints one JSON line after @@goal@@."""

import base64
import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

CONFIG = json.loads(sys.argv[1])
ROUTES = {(r.get("method", "GET"), r["path"]): r for r in CONFIG["routes"]}
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8", "TELVIK_CLIENT": "fenwick-river-trust"}
GIT_ENV = {**ENV, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_NO_REPLACE_OBJECTS": "1"}
"""The judge's own git reads what main holds, not through the box's git configuration or its replace refs."""


class StandIn(BaseHTTPRequestHandler):
    def do_GET(self):
        route = ROUTES.get(("GET", urlsplit(self.path).path))
        status, body = (route.get("status", 200), json.dumps(route.get("body", {}))) if route else \
            (404, json.dumps({"error": "not found"}))
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def run(command, cwd, env=None, timeout=60):
    try:
        done = subprocess.run(command, cwd=cwd, env={**ENV, **(env or {})}, capture_output=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        return done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -1, "timed out"


def cat_files(git, names):
    """Each object name's content when it is a blob (None otherwise), all read by one `git cat-file --batch`."""
    done = subprocess.run(git + ["cat-file", "--batch"], input="".join(f"{name}\n" for name in names).encode(),
                          capture_output=True, env=GIT_ENV, check=True)
    out, at, found = done.stdout, 0, []
    for _ in names:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if header[-1] == b"missing" or len(header) != 3:
            found.append(None)
            continue
        size = int(header[2])
        found.append(out[at:at + size] if header[1] == b"blob" else None)
        at += size + 1
    return found


def export(git, tree):
    """main's tree as committed, blob by blob (`git archive` would run filters the box's repository configures)."""
    listing = subprocess.run(git + ["ls-tree", "-r", "-z", "--full-tree", "main"], capture_output=True, env=GIT_ENV,
                             check=True).stdout.decode("utf-8", "surrogateescape")
    entries = [(meta.split(), path) for meta, path in
               (entry.split("\t", 1) for entry in filter(None, listing.split("\0")))]
    entries = [(mode, blob, path) for (mode, kind, blob), path in entries if kind == "blob"]
    for (mode, _, path), data in zip(entries, cat_files(git, [blob for _, blob, _ in entries]), strict=True):
        if data is None:
            raise subprocess.CalledProcessError(1, "git cat-file", stderr=f"blob of {path} unreadable".encode())
        target = os.path.join(tree, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == "120000":
            os.symlink(data.decode("utf-8", "surrogateescape"), target)
            continue
        with open(target, "wb") as handle:
            handle.write(data)
        os.chmod(target, 0o755 if mode == "100755" else 0o644)


def restore_startup(files):
    """Python start-up files the run added or changed, put back as the image ships them: what main's tree does on
    another machine does not depend on a hook left in this one's interpreter."""
    for path, original in files.items():
        if original is None:
            if os.path.lexists(path) and not os.path.isdir(path):
                os.remove(path)
        elif os.path.isdir(os.path.dirname(path)):
            with open(path, "wb") as handle:
                handle.write(base64.b64decode(original))


def main():
    repo = CONFIG["workdir"]
    restore_startup(CONFIG["startup"])
    report = {"committed": {}, "pulls": {}, "tests": None}
    git = ["/usr/bin/git", "-c", f"safe.directory={repo}", "-c", "core.hooksPath=/dev/null", "-C", repo]
    try:
        blobs = cat_files(git, [f"main:{path}" for path in CONFIG["committed"]])
    except subprocess.CalledProcessError:
        blobs = [None] * len(CONFIG["committed"])
    for path, data in zip(CONFIG["committed"], blobs, strict=True):
        report["committed"][path] = None if data is None else data.decode("utf-8", "replace")
    tree = tempfile.mkdtemp()
    try:
        export(git, tree)
    except subprocess.CalledProcessError as failed:
        report["error"] = "main cannot be exported: " + failed.stderr.decode("utf-8", "replace")[-300:]
        # '@' written as \u0040: output of delivered code quoted in the report never carries a report marker
        print("@@goal@@" + json.dumps(report).replace("@", "\\u0040"))
        return
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    api = f"http://127.0.0.1:{server.server_address[1]}"
    tests = os.path.join(tree, "tests")
    os.makedirs(tests, exist_ok=True)
    for name, text in CONFIG["tests"].items():
        with open(os.path.join(tests, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    for station, day in CONFIG["pulls"]:
        target = os.path.join(tree, "data", "readings", station, f"{day}.csv")
        if os.path.exists(target):
            os.remove(target)

    def pull(station, day):
        target = os.path.join(tree, "data", "readings", station, f"{day}.csv")
        code, output = run(["/usr/bin/bash", "bin/pull-day", station, day], tree, {"TELVIK_API_URL": api})
        text = open(target, encoding="utf-8").read() if os.path.exists(target) else None
        report["pulls"][f"{station} {day}"] = {"exit": code, "output": output[-300:], "csv": text}

    def test():
        code, output = run(["/usr/bin/python3", "-m", "unittest", *CONFIG["test_modules"]], tree, timeout=120)
        report["tests"] = {"exit": code, "tail": output.strip().splitlines()[-3:]}

    workers = [threading.Thread(target=pull, args=(station, day)) for station, day in CONFIG["pulls"]]
    workers.append(threading.Thread(target=test))
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    server.shutdown()
    # '@' written as \u0040: output of delivered code quoted in the report never carries a report marker
    print("@@goal@@" + json.dumps(report).replace("@", "\\u0040"))


main()
