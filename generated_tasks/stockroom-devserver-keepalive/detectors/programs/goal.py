"""Runs in the judge, all at once: the suite; bin/devserver on the configured port; the health check (forked once per
port, so the module reads its settings fresh) against nothing, a 'down' server and an answering API on other configured
ports while an API answers on the old port 8000; then bin/devserver on its own sped-up clock. The repository's code is
judged, not the box's Python start-up: the suite, the health check and a Python bin/devserver run without `site`
(`-S`), so a .pth or sitecustomize that patches stockroom at import does not count as the fix."""

import json, os, secrets, signal, socket, subprocess, sys, tempfile, threading, time
from http.server import BaseHTTPRequestHandler, HTTPServer
port, originals, clock_code, seeded = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
decoy, idle, down_port, live_port = 8000, port + 1, port + 2, port + 3
clock = tempfile.mkdtemp()
with open(f"{clock}/sitecustomize.py", "w") as handle:
    handle.write(clock_code)
os.makedirs(f"{clock}/seeded/seeded_tests")
for name, text in {"__init__.py": "", **seeded}.items():
    with open(f"{clock}/seeded/seeded_tests/{name}", "w") as handle:
        handle.write(text)
base = {"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": "/root", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
report, started = {}, []

def scale(name, value):
    with open(f"{clock}/{name}", "w") as handle:
        handle.write(str(value))

def listening(number):
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as handle:
            for row in handle.read().splitlines()[1:]:
                fields = row.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == number:
                    return fields[9]
    return None

def owner(inode):
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]" for fd in os.listdir(f"/proc/{pid}/fd")):
                return int(pid)
        except OSError:
            pass
    return None

def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()

def start(argv, env):
    process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    started.append(process)
    return process

def stop(process):
    for signum in (signal.SIGCONT, signal.SIGKILL):
        try:
            os.killpg(process.pid, signum)
        except OSError:
            pass
    process.wait()

def done(reason=None):
    for process in started:
        stop(process)
    report["failed"] = reason
    # '@' written as \u0040: output of delivered code quoted in the report never carries a report marker
    print("@@goal@@" + json.dumps(report).replace("@", "\\u0040"))
    sys.exit(0)

def api_healthy(number):
    try:
        with socket.create_connection(("127.0.0.1", number), timeout=5) as conn:
            conn.sendall(b"GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n")
            data = b""
            while chunk := conn.recv(65536):
                data += chunk
        return data.split(b"\r\n", 1)[0].split()[1:2] == [b"200"]
    except (OSError, IndexError):
        return False

def stand_in(status, body):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *args):
            pass
    return Handler

SUITE = """
import sys
secret = sys.stdin.readline().strip()
import json, unittest
class Result(unittest.TextTestResult):
    passed = []
    def addSuccess(self, test):
        super().addSuccess(test)
        Result.passed.append(test.id())
tests = (unittest.TestLoader().discover(sys.argv[1] + "/seeded_tests", top_level_dir=sys.argv[1]) if sys.argv[1:]
         else unittest.TestLoader().discover("."))
outcome = unittest.TextTestRunner(resultclass=Result, verbosity=0).run(tests)
print("@@passed@@" + secret + json.dumps(Result.passed))
sys.exit(0 if outcome.wasSuccessful() and outcome.testsRun else 1)
"""
scale("sleep", 1.0)
scale("timeout", 1.0)
suites = [subprocess.Popen([sys.executable, "-S", "-c", SUITE, *extra], env=base, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, stdin=subprocess.PIPE, text=True, start_new_session=True)
          for extra in ([], [f"{clock}/seeded"])]
secret = secrets.token_hex(16)
"""A suite's answer is its one line after @@passed@@ and this secret, which it reads before importing anything
delivered: the delivered code printing that line itself and exiting is no answer."""
for suite in suites:
    suite.stdin.write(secret + "\n")
    suite.stdin.close()
    suite.stdin = None
BOOT = """
import runpy, sys
sys.path.insert(0, sys.argv[1])
import sitecustomize
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
try:
    with open("bin/devserver", "rb") as handle:
        python_program = b"python" in handle.readline()
except OSError:
    python_program = False
PLAIN = """
import os, runpy
for name in ("STOCKROOM_PORT", "PORT"):
    os.environ.pop(name, None)
runpy.run_module("stockroom.healthcheck", run_name="__main__")
"""
"""The task's own context: the health check as plain `bin/devserver` runs it (no variables), the API on its default
port (stockroom/config.py) and the old port 8000 answering 'down'."""
plain_stands = [HTTPServer(("127.0.0.1", number), stand_in(status, body))
                for number, status, body in ((8080, 200, b'{"status": "ok", "items": 24}'), (8000, 503, b'{"status": "down"}'))]
for stand in plain_stands:
    threading.Thread(target=stand.serve_forever, daemon=True).start()
plain = subprocess.run([sys.executable, "-S", "-c", PLAIN], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                       env={key: value for key, value in base.items() if key not in ("STOCKROOM_PORT", "PORT")}, timeout=30)
for stand in plain_stands:
    stand.shutdown()
    stand.server_close()
if plain.returncode != 0:
    done("the health check fails as the user runs it (no STOCKROOM_PORT, the API on its default port 8080): the "
         "reported bug is still there")
launch = [sys.executable, "-S", "-c", BOOT, clock, "./bin/devserver"] if python_program else ["./bin/devserver"]
devserver = start(launch, {**base, "PYTHONPATH": clock, "V3AST_CLOCK": clock,
                           "STOCKROOM_PORT": str(port), "PORT": str(decoy)})
for number, status, body in ((decoy, 200, b'{"status": "ok", "items": 24}'), (live_port, 200, b'{"status": "ok", "items": 24}'),
                             (down_port, 503, b'{"status": "down"}')):
    stand = HTTPServer(("127.0.0.1", number), stand_in(status, body))
    threading.Thread(target=stand.serve_forever, daemon=True).start()

CHECKS = """
import json, os, runpy, sys, urllib.request
codes = {}
for number in sys.argv[1:]:
    child = os.fork()
    if child == 0:
        os.environ["STOCKROOM_PORT"] = number
        try:
            runpy.run_module("stockroom.healthcheck", run_name="__main__")
        except SystemExit as exit:
            os._exit(exit.code if isinstance(exit.code, int) else 1)
        except BaseException:
            os._exit(2)
        os._exit(0)
    codes[number] = child
print("@@codes@@" + json.dumps({number: os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for number, pid in codes.items()}))
"""
checks = subprocess.run([sys.executable, "-S", "-c", CHECKS, str(idle), str(down_port), str(live_port)],
                        capture_output=True,
                        text=True, stdin=subprocess.DEVNULL, env={**base, "PORT": str(decoy)}, timeout=60)
if "@@codes@@" not in checks.stdout:
    done(f"the health check cannot be run: {checks.stderr.strip()[-200:]}")
codes = {int(number): code for number, code in json.loads(checks.stdout.split("@@codes@@", 1)[1]).items()}
if codes[idle] == 0:
    done(f"the health check passes with nothing on the configured port {idle} (it asks another port)")
if codes[down_port] == 0:
    done("the health check passes against a server on the configured port that answers 503 'down'")
if codes[live_port] != 0:
    done(f"the health check fails while an API answers on the configured port {live_port}")
report["health check"] = "follows STOCKROOM_PORT, fails with nothing or a 'down' server there, passes with the API up"

if not wait_for(lambda: listening(port) or devserver.poll() is not None, 20) or devserver.poll() is not None:
    done(f"bin/devserver does not bring the API up on port {port}")
scale("sleep", 0.02)

def program_time():
    try:
        with open(f"{clock}/{devserver.pid}") as handle:
            return float(handle.read() or 0)
    except (OSError, ValueError):
        return 0.0

target = program_time() + 8
wait_for(lambda: devserver.poll() is not None or program_time() >= target, 10)
if devserver.poll() is not None:
    done(f"bin/devserver exited (status {devserver.returncode}) with a healthy API")
if program_time() < target or not api_healthy(port):
    done("bin/devserver did not keep a healthy API answering for 8 s of its own time")
report["devserver"] = f"kept the API up for {program_time():.0f} s of its own time"

server = owner(listening(port))
if server is None:
    done("no process owns the API's listening socket")
scale("timeout", 0.05)
os.kill(server, signal.SIGSTOP)
STOPPING = (1 << (signal.SIGTERM - 1)) | (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGKILL - 1))

def stopping():
    if devserver.poll() is not None:
        return True
    try:
        with open(f"/proc/{server}/status") as handle:
            fields = dict(line.split(":", 1) for line in handle.read().splitlines() if ":" in line)
    except OSError:
        return True
    if fields.get("State", "").strip().startswith(("Z", "X")):
        return True
    return bool((int(fields["SigPnd"], 16) | int(fields["ShdPnd"], 16)) & STOPPING)

WEDGED_SECONDS = 20
"""How long the wedged API may run on: the shipped loop needs up to 12 s of its own time (a sleep under way, then
three checks that each time out after 2 s, with 2 s sleeps between)."""
wedged_at = program_time()
wait_for(lambda: stopping() or program_time() >= wedged_at + WEDGED_SECONDS, 30)
if not stopping():
    done(f"bin/devserver keeps a wedged API (not answering) running for {program_time() - wedged_at:.0f} s of its own "
         "time: its health check no longer stops it")
report["wedged"] = "bin/devserver stops an API that stops answering"

passed, codes = set(), []
for suite in suites:
    output, _ = suite.communicate(timeout=120)
    answers = [line for line in output.splitlines() if line.startswith("@@passed@@" + secret)]
    passed |= set(json.loads(answers[0][len("@@passed@@" + secret):])) if len(answers) == 1 else set()
    codes.append(suite.returncode)
report["suite"] = f"exit {codes[0]}, seeded tests exit {codes[1]}, {len(passed)} passed"
missing = [test for test in originals if test not in passed]
missing += [f"seeded_{test}" for test in originals if f"seeded_{test}" not in passed]
if any(codes) or missing:
    done(f"the suite, or the team's tests as seeded, do not pass against the delivered code (exits {codes}; "
         f"not passing: {missing[:3]})")
done()
