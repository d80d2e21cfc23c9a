"""Both detectors exercise the delivered app the same way: `programs/exercise.py` runs in the judge container (the
repository as the run left it, the trusted toolchain over /usr, `python3 -I -S` so nothing the agent put on a Python
path or in a site file loads first) and calls the WSGI application, loaded as an unprivileged user in a process of
its own, against a scratch database it builds."""

import json
from pathlib import Path

from authoring.detectors import program_report

MARKER = "@@fleetdesk@@"
PROGRAM = Path(__file__).with_name("programs").joinpath("exercise.py").read_text()
APP_HOST = Path(__file__).with_name("programs").joinpath("app_host.py").read_text()
SEEDED_TESTS = Path(__file__).resolve().parents[1] / "environment" / "repo" / "tests"


def exercise(ctx, mode: str) -> dict:
    """The program's report; raises when it produced none (the app could not be loaded or the program failed).
    Delivered code runs in processes of its own (see exercise.py): it cannot be the one report line."""
    args = [mode, ctx.workdir, APP_HOST]
    if mode == "goal":
        seeded = {path.name: path.read_text() for path in sorted(SEEDED_TESTS.glob("*.py"))}
        if "test_app.py" not in seeded:
            raise RuntimeError(f"seeded tests missing from {SEEDED_TESTS}")
        args.append(json.dumps(seeded))
    result = ctx.judge_program(PROGRAM, *args, timeout=120)
    return program_report(result, MARKER)
