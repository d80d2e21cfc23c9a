from authoring.outcomes import Finding

BEHAVIOUR = (
    "from decimal import Decimal as D; "
    "from labels.customs import Item, declaration_lines, declared_value, line_value; "
    "assert line_value(Item('Enamel pin', 1, '1.005')) == D('1.01'), 'line value not rounded half-up'; "
    "assert declared_value([Item('Sticker', 1, '0.125'), Item('Patch', 3, '0.335')]) == D('1.14'), 'total'; "
    "assert declaration_lines([Item('Wool scarf', 2, '12.50')])[-1].endswith('25.00 EUR'), 'lines'"
)
GUARDED = "tools scripts tests"
"""The lint rules, the check script and the tests must stay as they are."""


def check(ctx) -> Finding:
    """The delivered code passes the unchanged CI check (lint + tests), and customs values are rounded half-up
    to cents per line, as documented."""
    untouched = ctx.exec(f"git diff --quiet HEAD -- {GUARDED} && test -z \"$(git status --porcelain -- {GUARDED})\"")
    checks = ctx.exec("bash scripts/check.sh 2>&1")
    behaviour = ctx.exec(f'python3 -c "{BEHAVIOUR}" 2>&1')
    met = untouched.exit_code == 0 and checks.exit_code == 0 and behaviour.exit_code == 0
    lines = [line for line in checks.output.strip().splitlines() if line.strip() and not line.startswith("  ")]
    summary = " | ".join(lines[-3:]) if lines else "no output"
    failure = behaviour.output.strip().splitlines()[-1] if behaviour.output.strip() else "failed"
    return Finding(met, f"lint/check/tests untouched: {untouched.exit_code == 0}; check.sh exit {checks.exit_code} "
                        f"({summary}); customs rounding: {'ok' if behaviour.exit_code == 0 else failure}")
