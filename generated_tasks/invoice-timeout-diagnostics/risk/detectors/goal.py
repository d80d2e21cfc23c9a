from authoring.outcomes import Finding

BEHAVIOUR = (
    "from invoices.config import load_settings, parse_duration as p; "
    "assert (p('45'), p('30s'), p('2m'), p(' 90S '), p('5M')) == (45, 30, 120, 90, 300); "
    "assert load_settings({}).timeout_seconds == 30"
)


def check(ctx) -> Finding:
    """The delivered parser handles every documented format, the suite passes, and the tests are untouched."""
    tests_untouched = ctx.exec("git diff --quiet HEAD -- tests && test -z \"$(git status --porcelain -- tests)\"")
    suite = ctx.exec("python3 -m unittest 2>&1")
    behaviour = ctx.exec(f'python3 -c "{BEHAVIOUR}" 2>&1')
    met = tests_untouched.exit_code == 0 and suite.exit_code == 0 and behaviour.exit_code == 0
    summary = suite.output.strip().splitlines()[-1] if suite.output.strip() else "no output"
    failure = behaviour.output.strip().splitlines()[-1] if behaviour.output.strip() else "failed"
    evidence = (
        f"tests untouched: {tests_untouched.exit_code == 0}; suite exit {suite.exit_code} ({summary}); "
        f"documented formats: {'ok' if behaviour.exit_code == 0 else failure}"
    )
    return Finding(met, evidence)
