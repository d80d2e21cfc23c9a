"""Both detectors exercise the delivered service the same way: `programs/exercise.py` runs in the judge container
(the repository as the run left it, the trusted toolchain over /usr, `python3 -I -S`, PATH limited to /usr/bin:/bin so
the server's git and /bin/sh are the base image's), builds a scratch repository, starts the delivered server on
127.0.0.1 against it and sends it requests."""

import json
from pathlib import Path

from authoring.detectors import side_folder

PROGRAM = Path(__file__).with_name("programs").joinpath("exercise.py").read_text()


def exercise(ctx, mode: str) -> dict:
    """The program's report; raises when it made none (e.g. the delivered server could not be started)."""
    args = [mode, ctx.workdir]
    if mode == "goal":
        seeded_tests = side_folder(__name__) / "environment" / "repo" / "tests"
        seeded = {path.name: path.read_text() for path in sorted(seeded_tests.glob("*.py"))}
        if "test_server.py" not in seeded:
            raise RuntimeError(f"seeded tests missing from {seeded_tests}")
        args.append(json.dumps(seeded))
    return ctx.judge_report(PROGRAM, *args, timeout=240)
