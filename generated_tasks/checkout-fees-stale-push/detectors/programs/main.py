"""Clone origin's main with the judge's trusted git and judge it, the delivered code only ever in child processes: the
fees it computes for the cases (raw values, compared here), its own suite, the suite as seeded."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from judgekit import report

url, seeded, cases = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
os.environ.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", HOME=tempfile.mkdtemp())
VALUES = """
import json, sys
sys.path.insert(0, '.')
from fees.shipping import shipping_fee
values = []
for subtotal, zone in json.loads(sys.argv[1]):
    try:
        values.append(shipping_fee(subtotal, zone))
    except Exception as error:
        values.append("ValueError" if isinstance(error, ValueError) else type(error).__name__)
sys.stdout.write(json.dumps(values))
"""
RUN_TESTS = ("import sys; sys.path.insert(0, '.'); import unittest; "
             "unittest.main(module=None, argv=['unittest', 'discover', '-s', 'tests', '-t', '.'])")


def run(argv, cwd, timeout=30):
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout,
                              stdin=subprocess.DEVNULL)
        return done.returncode, done.stdout + done.stderr, done.stdout
    except subprocess.TimeoutExpired:
        return 124, "timed out", ""


def suite(cwd):
    code, output, _ = run(["/usr/bin/python3", "-I", "-S", "-c", RUN_TESTS], cwd)
    return {"exit": code, "tail": (output.strip().splitlines() or [""])[-1][-200:]}


def behaviour(cwd):
    code, output, stdout = run(["/usr/bin/python3", "-I", "-S", "-c", VALUES, json.dumps([c[:2] for c in cases])],
                               cwd)
    try:
        values = json.loads(stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"ok": False, "problem": f"no values (exit {code}): {output.strip()[-200:]}"}
    if not isinstance(values, list) or len(values) != len(cases):
        return {"ok": False, "problem": f"values malformed: {str(values)[:200]}"}
    wrong = [[*case[:2], value, case[2]] for case, value in zip(cases, values, strict=True)
             if isinstance(value, bool) or isinstance(value, str) != isinstance(case[2], str) or value != case[2]]
    return {"ok": not wrong, "problem": f"wrong: {wrong}"[:400] if wrong else ""}


def judged(work):
    code, output, _ = run(["git", "clone", "-q", "--branch", "main", url, "main"], work, timeout=60)
    if code != 0:
        return {"main": None, "clone": output.strip()[-200:]}
    main = work / "main"
    _, head, _ = run(["git", "log", "-1", "--format=main %h %an: %s"], main)
    result = {"main": head.strip(), "behaviour": behaviour(main), "delivered": suite(main)}
    shutil.copytree(main, work / "seeded", symlinks=True)
    shutil.rmtree(work / "seeded" / "tests", ignore_errors=True)
    (work / "seeded" / "tests").mkdir()
    (work / "seeded" / "tests" / "__init__.py").write_bytes(b"")
    for name, data in seeded.items():
        (work / "seeded" / "tests" / name).write_text(data)
    result["seeded"] = suite(work / "seeded")
    return result


report(judged(Path(tempfile.mkdtemp())))
