"""Headless Chromium (Debian's `chromium` package) for looking at the HTML report as a reader would."""

from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
OFFLINE = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           "--proxy-server=127.0.0.1:9"]
"""No network: every request goes to a closed port."""


def screenshot(page: Path | str, image: Path, width: int = 1280, height: int = 4000,
               javascript: bool = False) -> Path:
    """A PNG of the page (a file, or a file:// URL with a #fragment) opened from disk, offline."""
    _chromium([*([] if javascript else ["--disable-javascript"]), f"--window-size={width},{height}",
               f"--screenshot={image}", _url(page)])
    if not Path(image).is_file():
        raise RuntimeError(f"chromium wrote no screenshot of {page}")
    return image


def dom(page: Path | str) -> str:
    """The page's DOM after its scripts ran (a file, or a file:// URL with a #fragment), offline."""
    return _chromium(["--virtual-time-budget=5000", "--dump-dom", _url(page)]).stdout


def _url(page: Path | str) -> str:
    return page if isinstance(page, str) else Path(page).resolve().as_uri()


def _chromium(arguments: list[str]) -> subprocess.CompletedProcess:
    if CHROMIUM is None:
        raise RuntimeError("no chromium on PATH (apt-get install chromium)")
    return subprocess.run([CHROMIUM, *OFFLINE, *arguments], check=True, capture_output=True, text=True, timeout=120)


def evaluate(steps: list[tuple[Path | str, str]], timeout: float = 60) -> list:
    """In one headless Chromium (offline, JavaScript on, a fresh profile), open each step's page and run its script
    there once the page has loaded: an async function body whose returned value (JSON) comes back. Through the
    DevTools protocol on a pipe, so a test can click and type as a reader would; storage lasts across the steps."""
    if CHROMIUM is None:
        raise RuntimeError("no chromium on PATH (apt-get install chromium)")
    to_chromium, from_test = (_above_9(fd) for fd in os.pipe())
    from_chromium, to_test = (_above_9(fd) for fd in os.pipe())
    shell = f'exec "$0" "$@" 3<&{to_chromium} 4>&{to_test} {to_chromium}<&- {to_test}>&-'
    # Chromium's helper processes may still write to the profile for a moment after the group is killed
    with tempfile.TemporaryDirectory(prefix="v3ast-chromium-", ignore_cleanup_errors=True) as profile:
        process = subprocess.Popen(["bash", "-c", shell, CHROMIUM, *OFFLINE, f"--user-data-dir={profile}",
                                    "--remote-debugging-pipe", "about:blank"], pass_fds=(to_chromium, to_test),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(to_chromium)
        os.close(to_test)
        session = _Pipe(from_test, from_chromium, time.monotonic() + timeout)
        try:
            pages = session.call("Target.getTargets")["targetInfos"]
            target = next(t["targetId"] for t in pages if t["type"] == "page")
            session.id = session.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            return [_run(session, page, script) for page, script in steps]
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            os.close(from_test)
            os.close(from_chromium)


def _run(session: _Pipe, page: Path | str, script: str):
    url = _url(page)
    session.call("Page.navigate", url=url)
    loaded = f"location.href === {json.dumps(url)} && document.readyState === 'complete'"
    while not session.call("Runtime.evaluate", expression=loaded, returnByValue=True)["result"].get("value"):
        if time.monotonic() > session.deadline:
            raise TimeoutError(f"chromium did not load {url}")
        time.sleep(0.05)
    found = session.call("Runtime.evaluate", expression=f"(async () => {{ {script} }})()", awaitPromise=True,
                         returnByValue=True)
    if "exceptionDetails" in found:
        raise RuntimeError(f"the page's script failed: {found['exceptionDetails']}")
    return found["result"].get("value")


def _above_9(fd: int) -> int:
    """The descriptor moved above 9 (bash, not dash: it redirects those), so the child can have the pipes on 3 and 4."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class _Pipe:
    """Chromium's DevTools protocol over --remote-debugging-pipe: NUL-terminated JSON messages on fds 3 and 4."""

    def __init__(self, write: int, read: int, deadline: float):
        self.write, self.read, self.deadline, self.id = write, read, deadline, None
        self.sent, self.buffer = 0, b""

    def call(self, method: str, **params) -> dict:
        self.sent += 1
        message = {"id": self.sent, "method": method, "params": params}
        if self.id and not method.startswith("Target."):
            message["sessionId"] = self.id
        os.write(self.write, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                if not select.select([self.read], [], [], max(0.0, self.deadline - time.monotonic()))[0]:
                    raise TimeoutError(f"chromium did not answer {method}")
                chunk = os.read(self.read, 1 << 20)
                if not chunk:
                    raise RuntimeError(f"chromium closed the pipe during {method}")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.sent:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
