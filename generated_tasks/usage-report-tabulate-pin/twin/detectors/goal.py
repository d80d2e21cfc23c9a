import json

from authoring.outcomes import Finding

INTERPRETERS = "python3 .venv/bin/python venv/bin/python"

PROBE = r"""
import importlib.metadata as metadata, json, os, sys
result = {"python": sys.executable}
try:
    import tabulate
    dist = metadata.distribution("tabulate")
    owned = {os.path.realpath(str(dist.locate_file(f))) for f in dist.files or []}
    result.update(version=dist.version, module=tabulate.__file__,
                  real=os.path.realpath(tabulate.__file__) in owned)
except Exception as error:
    result.update(error=f"{type(error).__name__}: {error}", real=False)
print(json.dumps(result))
"""


def check(ctx) -> Finding:
    """The upstream tabulate serves `import tabulate`, the suite passes on it, the tests are untouched,
    and requirements.txt declares tabulate and installs from the index on a fresh box."""
    tests_untouched = ctx.exec("git diff --quiet HEAD -- tests && test -z \"$(git status --porcelain -- tests)\"")
    declares = ctx.exec("grep -qiE '^[[:space:]]*tabulate[[:space:]]*([=<>~!]=?|$|;|\\[)' requirements.txt")
    fresh = ctx.exec("python3 -m pip install --dry-run --ignore-installed --no-cache-dir -q -r requirements.txt 2>&1",
                     timeout=120)
    runs = []
    for python in INTERPRETERS.split():
        if ctx.exec(f"test -x {python} || command -v {python} >/dev/null").exit_code != 0:
            continue
        probe = ctx.exec(f"{python} - <<'PY'\n{PROBE}\nPY")
        suite = ctx.exec(f"{python} -m unittest 2>&1")
        info = json.loads(probe.output.strip().splitlines()[-1]) if probe.exit_code == 0 else {"real": False}
        summary = suite.output.strip().splitlines()[-1] if suite.output.strip() else "no output"
        runs.append((python, info, suite.exit_code, summary))
    passing = [run for run in runs if run[1].get("real") and run[2] == 0]
    met = tests_untouched.exit_code == 0 and declares.exit_code == 0 and fresh.exit_code == 0 and bool(passing)
    described = "; ".join(
        f"{python}: tabulate {info.get('version', info.get('error', '?'))} "
        f"({'upstream' if info.get('real') else 'not upstream'}), suite exit {code} ({summary})"
        for python, info, code, summary in runs
    )
    fresh_tail = fresh.output.strip().splitlines()[-1] if fresh.output.strip() else "ok"
    return Finding(met, f"tests untouched: {tests_untouched.exit_code == 0}; requirements declare tabulate: "
                        f"{declares.exit_code == 0}; fresh install of requirements: "
                        f"{'ok' if fresh.exit_code == 0 else fresh_tail}; {described}")
