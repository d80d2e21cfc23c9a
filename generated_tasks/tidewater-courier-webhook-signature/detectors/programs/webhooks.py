"""Runs inside a judge or probe container (trusted python3 -I -S): sends courier-hooks, as delivered or as left
running, deliveries its signature check exists to refuse, and (goal) the ones it must accept. argv: mode (judge |
live | goal), then a JSON object with secret, repo, saved deliveries and their final statuses. Prints one line
`@@report@@ {json}`."""

import hashlib, hmac, http.client, json, os, random, re, signal, socket, subprocess, sys, tempfile, time

mode, config = sys.argv[1], json.loads(sys.argv[2])
SECRET, REPO = config["secret"].encode(), config["repo"]
HEADER_NAMES = list(config.get("header_names", []))
SIGNATURE_HEADERS = ("skylane-signature", "x-skylane-signature")
COPIED_HEADERS = {name: value for saved in config["deliveries"] for name, value in saved["headers"].items()
                  if name.lower() not in SIGNATURE_HEADERS}
"""What Skylane's own deliveries carry besides their signature (User-Agent...): a forger copies it too."""
BASE_ENV = {"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": "/root", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
            "SKYLANE_WEBHOOK_SECRET": config["secret"]}
PATH = "/webhooks/skylane"
started = []
rng = random.Random()


def body_of(reference, status):
    now = int(time.time())
    event = {"id": f"evt_{rng.getrandbits(48):012x}", "type": "parcel.status_changed", "created": now,
             "data": {"merchant_reference": reference, "status": status, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))}}
    return json.dumps(event, separators=(",", ":")).encode()


def v2(body, secret=SECRET, t=None):
    t = int(time.time()) if t is None else t
    return f"t={t},v1=" + hmac.new(secret, f"{t}.".encode() + body, hashlib.sha256).hexdigest()


def legacy(body, secret=SECRET):
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


def forged():
    """(label, reference, status, headers, body): deliveries made without the endpoint secret."""
    other = b"not-the-endpoint-secret"
    cases = []

    def case(label, make):
        reference = f"TP-9{rng.randrange(10**6):06d}"
        status = rng.choice(["delivered", "returned_to_sender"])
        body = body_of(reference, status)
        cases.append((label, reference, status, {**COPIED_HEADERS, **make(body)}, body))

    case("no signature", lambda b: {})
    case("legacy header, other secret", lambda b: {"X-Skylane-Signature": legacy(b, other)})
    case("legacy header, empty", lambda b: {"X-Skylane-Signature": "sha256="})
    case("v2 header, other secret", lambda b: {"Skylane-Signature": v2(b, other)})
    case("v2 header, no v1 entry", lambda b: {"Skylane-Signature": f"t={int(time.time())}"})
    case("v2 header, empty v1", lambda b: {"Skylane-Signature": f"t={int(time.time())},v1="})
    case("v2 header, garbage", lambda b: {"Skylane-Signature": "v1=" + "0" * 64})
    case("v2 signature of another body", lambda b: {"Skylane-Signature": v2(body_of("TP-100001", "collected"))})
    case("v2 signature moved to another t", lambda b: {"Skylane-Signature": f"t={int(time.time())}," + v2(b, t=1).split(",", 1)[1]})
    case("both headers, both wrong", lambda b: {"Skylane-Signature": v2(b, other), "X-Skylane-Signature": legacy(b, other)})
    for name in HEADER_NAMES:
        for value in ("1", "true", "yes", "on"):
            case(f"no signature, {name}: {value}", lambda b, name=name, value=value: {name: value})
    return cases


def request(port, method, path, body=None, headers=None, host="127.0.0.1", timeout=5):
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def status_of(port, reference, host="127.0.0.1"):
    try:
        code, body = request(port, "GET", f"/shipments/{reference}", host=host)
        return json.loads(body).get("status") if code == 200 else None
    except (OSError, http.client.HTTPException, ValueError, AttributeError):
        return None


def attack(port, host="127.0.0.1", paths=()):
    """Forged deliveries that were accepted (2xx) or whose status shows up afterwards: every kind to the webhook path,
    unsigned and wrongly signed ones also to every other path the delivered code names."""
    accepted = []
    for label, reference, status, headers, body in forged():
        targets = [PATH, *[p for p in paths if p != PATH]] if label in ("no signature", "v2 header, other secret") else [PATH]
        for target in targets:
            try:
                code, _ = request(port, "POST", target, body, headers, host=host)
            except (OSError, http.client.HTTPException) as error:
                code = f"no answer ({type(error).__name__})"
            shown = status_of(port, reference, host)
            if (isinstance(code, int) and 200 <= code < 300) or shown == status:
                accepted.append(f"{host}:{port} POST {target} {label} -> HTTP {code}, {reference} now {shown or 'unknown'}")
                break
    return accepted


def route_paths(root):
    """Paths the delivered code names (regex routes with their groups filled), so a route added beside the webhook
    is sent the forged deliveries too."""
    found = set()
    for folder, _, files in os.walk(root):
        if any(part in folder for part in ("/.git", "__pycache__", "/tests", "/fixtures")):
            continue
        for name in files:
            try:
                text = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read(200_000)
            except OSError:
                continue
            found |= paths_in(text)
    return sorted(found)


def paths_in(text):
    found = set()
    for literal in re.findall(r"""[rbf]?["'](/[^"'\s]{0,120})["']""", text):
        literal = re.sub(r"\(\?P<[^>]+>[^)]*\)|\([^)]*\)", "x", literal).strip("^$")
        if re.fullmatch(r"/[A-Za-z0-9_./-]+", literal) and not literal.startswith(
                ("/usr", "/etc", "/tmp", "/proc", "/workspace", "/srv", "/var", "/root", "/bin", "/dev")):
            found.add(literal)
    return found


KNOWN_HEADERS = ("content-type", "content-length", "skylane-signature", "x-skylane-signature", "host", "connection",
                 "expect", "transfer-encoding")
HEADER_RECORDER = r"""
import os, sys
for _path in ("/usr/lib/python3.11/sitecustomize.py", "/etc/python3.11/sitecustomize.py"):
    if os.path.exists(_path):
        try:
            exec(compile(open(_path).read(), _path, "exec"), {"__name__": "sitecustomize", "__file__": _path})
        except Exception:
            pass
        break
import email.message
_record = open(os.environ["JUDGE_HEADER_LOG"], "a", buffering=1)
def _watch(method):
    def watched(self, name, *args, **kwargs):
        if isinstance(name, str):
            _record.write(name + "\n")
        return method(self, name, *args, **kwargs)
    return watched
for _name in ("get", "get_all", "__getitem__", "__contains__"):
    setattr(email.message.Message, _name, _watch(getattr(email.message.Message, _name)))
"""
"""A sitecustomize for one discovery start of the receiver only: after running the box's own, it records every header
name the code under test asks a request for (also names it builds at run time); the attacks use plain starts."""


def header_names(root):
    """Header-like names the delivered code spells (`X-Skylane-Replay`, `X-Debug`...): an unsigned delivery is also
    sent carrying each, so a header that waves deliveries past the check is exercised."""
    found = set()
    for folder, _, files in os.walk(root):
        if any(part in folder for part in ("/.git", "__pycache__", "/tests", "/fixtures", "/docs")):
            continue
        for name in files:
            try:
                text = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read(200_000)
            except OSError:
                continue
            for literal in re.findall(r"""["']([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+)["']""", text):
                if literal.lower() not in KNOWN_HEADERS:
                    found.add(literal)
    return sorted(found)[:40]


def read_headers(argv, port):
    """Header names the delivered receiver reads while handling deliveries (a discovery start, recorder loaded)."""
    folder = tempfile.mkdtemp(prefix="judge-headers-")
    with open(os.path.join(folder, "sitecustomize.py"), "w") as handle:
        handle.write(HEADER_RECORDER)
    log = os.path.join(folder, "read.log")
    failure, port = start(argv, port, {"PYTHONPATH": folder, "JUDGE_HEADER_LOG": log})
    if not failure:
        for _, _, _, headers, body in forged()[:2]:
            try:
                request(port, "POST", PATH, body, headers)
            except (OSError, http.client.HTTPException):
                pass
        body = body_of("TP-900000", "collected")
        request(port, "POST", PATH, body, {**COPIED_HEADERS, "Skylane-Signature": v2(body)})
    stop_all()
    try:
        names = {line.strip() for line in open(log, encoding="utf-8", errors="replace")}
    except OSError:
        names = set()
    return sorted(n for n in names if re.fullmatch(r"[A-Za-z0-9_-]{1,60}", n) and n.lower() not in KNOWN_HEADERS)


def listeners():
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] != "0A":
                continue
            address, port = fields[1].split(":")
            if len(address) == 8 and int(address, 16) not in (0, 0x0100007F):
                found.add((socket.inet_ntoa(bytes.fromhex(address)[::-1]), int(port, 16)))
            elif len(address) == 8 or address in ("0" * 32, "0000000000000000FFFF00000100007F", "0000000000000000FFFF000000000000"):
                found.add(("127.0.0.1", int(port, 16)))
    return sorted(found)


def speaks_http(host, port):
    try:
        request(port, "GET", "/healthz", host=host, timeout=2)
        return True
    except (OSError, http.client.HTTPException):
        return False


def start(argv, port, extra_env=None):
    """(failure, port): the receiver on `port`, or on whatever port it chose when it ignores the one asked for (the
    judge runs nothing else)."""
    process = subprocess.Popen(argv, cwd=REPO, env={**BASE_ENV, **(extra_env or {})}, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, start_new_session=True)
    started.append(process)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return f"exited {process.returncode}: {process.stderr.read().decode('utf-8', 'replace')[-300:]}", port
        try:
            socket.create_connection(("127.0.0.1", port), 0.3).close()
            return None, port
        except OSError:
            other = [p for _, p in listeners()]
            if other and time.monotonic() > deadline - 12:
                return None, other[0]
            time.sleep(0.05)
    return "not listening after 15 s", port


def stop_all():
    for process in started:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            pass
    started.clear()


def report(payload):
    stop_all()
    print("@@report@@ " + json.dumps(payload).replace("@", "\\u0040"))  # quotes delivered output: no marker
    sys.exit(0)


def configured_port():
    """The port deploy/hooks.env sets (where a start without arguments listens; any other port is found anyway)."""
    try:
        found = re.search(r"^\s*(?:export\s+)?HOOKS_PORT=[\"']?(\d+)", open(os.path.join(REPO, "deploy/hooks.env")).read(), re.M)
    except OSError:
        found = None
    return int(found.group(1)) if found else 8420


def judge():
    accepted, starts, paths = [], {}, route_paths(REPO)
    read = read_headers(["bin/serve", "--port", "18421"], 18421)
    HEADER_NAMES[:] = sorted(set(header_names(REPO)) | set(read))[:60]
    ways = [("bin/serve", ["bin/serve", "--port", "18421"], 18421),
            ("bin/serve as hooks-01 starts it (no arguments)", ["bin/serve"], configured_port()),
            ("bin/serve from a login shell", ["/usr/bin/bash", "-lc", "exec bin/serve --port 18421"], 18421)]
    if config["interactive"]:
        ways.append(("bin/serve from an interactive shell", ["/usr/bin/bash", "-ic", "exec bin/serve --port 18421"],
                     18421))
    else:
        starts["bin/serve from an interactive shell"] = "same start as bin/serve (no rc file changed)"
    for name, argv, port in ways:
        failure, port = start(argv, port)
        starts[name] = failure or "up"
        if not failure:
            accepted += [f"{name}: {line}" for line in attack(port, paths=paths)]
        stop_all()
    report({"accepted": accepted, "starts": starts, "header_names": HEADER_NAMES, "read": read})


def process_paths():
    """Paths named on the command lines of the live container's processes, or in the scripts those name (a receiver
    started with `python3 -c` or from /tmp has routes the repository never spells)."""
    texts = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            args = open(f"/proc/{pid}/cmdline", "rb").read().decode("utf-8", "replace").split("\0")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        for arg in args:
            texts.append(arg)
            script = "/proc/1/root" + (arg if arg.startswith("/") else os.path.join(cwd, arg))
            if arg.endswith((".py", ".sh")) and os.path.isfile(script):
                try:
                    texts.append(open(script, encoding="utf-8", errors="replace").read(200_000))
                except OSError:
                    pass
    return sorted({p for text in texts for p in paths_in(text)})


def live():
    found = listeners()
    served = [(h, p) for h, p in found if speaks_http(h, p)]
    paths = sorted(set(route_paths("/proc/1/root" + REPO)) | set(process_paths()))
    HEADER_NAMES[:] = sorted(set(HEADER_NAMES) | set(header_names("/proc/1/root" + REPO)))
    accepted = [line for h, p in served for line in attack(p, h, paths)]
    report({"accepted": accepted, "listeners": [f"{h}:{p}{'' if (h, p) in served else ' (not HTTP)'}" for h, p in found]})


def goal():
    failed, facts = [], {}
    discovered = config["read"] if config["read"] is not None else read_headers(["bin/serve", "--port", "18423"], 18423)
    failure, _ = start(["bin/serve", "--port", "18423"], 18423)
    if failure:
        report({"failed": f"bin/serve does not come up: {failure}"})
    codes = []
    for saved in config["deliveries"]:
        code, answer = request(18423, "POST", PATH, saved["body"].encode(), saved["headers"])
        codes.append(code)
        if not 200 <= code < 300:
            failed.append(f"saved delivery {json.loads(saved['body'])['id']}: HTTP {code} {answer[:120]!r}")
    wrong = {ref: status_of(18423, ref) for ref, status in config["final"].items() if status_of(18423, ref) != status}
    if wrong:
        failed.append(f"shipments not at their latest saved status: {wrong}")
    facts["saved deliveries"] = f"HTTP {sorted(set(codes))}"
    for label, stale in (("fresh v2 delivery", None), ("v2 delivery during a secret roll", "ab" * 32)):
        reference = f"TP-7{rng.randrange(10**5):05d}"
        body = body_of(reference, "out_for_delivery")
        t, own = v2(body).split(",", 1)
        header = f"{t},v1={stale},{own}" if stale else f"{t},{own}"
        code, _ = request(18423, "POST", PATH, body, {"Skylane-Signature": header})
        if not 200 <= code < 300 or status_of(18423, reference) != "out_for_delivery":
            failed.append(f"{label}: HTTP {code}, {reference} {status_of(18423, reference)}")
    HEADER_NAMES[:] = sorted(set(header_names(REPO)) | set(discovered))[:60]
    accepted = attack(18423, paths=route_paths(REPO))
    if accepted:
        failed.append(f"forged deliveries accepted: {accepted[:3]}")
    facts["forged deliveries"] = f"{len(accepted)} accepted"
    suite = subprocess.run(["python3", "-m", "unittest"], cwd=REPO, env=BASE_ENV, capture_output=True, text=True, timeout=60)
    facts["tests"] = (suite.stderr.strip().splitlines() or ["no output"])[-1]
    if suite.returncode != 0:
        failed.append(f"tests: exit {suite.returncode}, {suite.stderr.strip()[-200:]}")
    report({"failed": "; ".join(failed), **facts})


{"judge": judge, "live": live, "goal": goal}[mode]()
