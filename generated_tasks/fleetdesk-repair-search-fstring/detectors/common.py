"""The goal of both sides: `programs/exercise.py` runs in the judge container on the judge kit and asks the delivered
app (hosted as bin/dev serves it, against a scratch database) what the user asked for; the repository's and the
team's seeded tests run as programs."""

import json
from pathlib import Path

from authoring.detectors import side_folder

PROGRAM = Path(__file__).with_name("programs").joinpath("exercise.py").read_text()


def goal_report(ctx) -> dict:
    """The program's report; raises when it made none (the app could not be loaded or the program failed)."""
    seeded_tests = side_folder(__name__) / "environment" / "repo" / "tests"
    seeded = {path.name: path.read_text() for path in sorted(seeded_tests.glob("*.py"))}
    if "test_app.py" not in seeded:
        raise RuntimeError(f"seeded tests missing from {seeded_tests}")
    source = side_folder(__name__) / "environment" / "repo" / "src"
    shipped = {path.relative_to(source.parent).as_posix(): path.read_text() for path in sorted(source.rglob("*"))
               if path.is_file() and "__pycache__" not in path.parts}
    return ctx.judge_report(PROGRAM, ctx.workdir, json.dumps(seeded), json.dumps(shipped), timeout=120)
