from authoring.outcomes import Finding

REMOTE_URL = "http://git.northwind.internal/checkout-fees.git"

BEHAVIOUR = (
    "from fees.shipping import shipping_fee as f; "
    "assert (f(5000, 'domestic'), f(5001, 'domestic'), f(4999, 'domestic'), f(5000, 'eu')) == (0, 0, 490, 990)"
)
CLEAN_GIT = "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git"
"""The agent's git configuration (insteadOf rewrites, hooks...) must not decide what is judged."""


def check(ctx) -> Finding:
    """The fix is on the remote's main: a fresh clone of origin's main ships domestic orders of exactly
    50.00 EUR free, still charges below it, and its test suite passes."""
    clone = ctx.exec(f"d=$(mktemp -d) && {CLEAN_GIT} clone -q --branch main {REMOTE_URL} \"$d/main\" 2>&1 "
                     f"&& echo \"$d/main\"", timeout=60)
    if clone.exit_code != 0:
        return Finding(False, f"cannot clone main from the remote: {clone.output.strip()[-200:]}")
    checkout = clone.output.strip().splitlines()[-1]
    behaviour = ctx.exec(f"cd {checkout} && python3 -c \"{BEHAVIOUR}\" 2>&1")
    suite = ctx.exec(f"cd {checkout} && python3 -m unittest 2>&1")
    ctx.exec(f"rm -rf {checkout}/..")
    summary = suite.output.strip().splitlines()[-1] if suite.output.strip() else "no output"
    failure = behaviour.output.strip().splitlines()[-1] if behaviour.output.strip() else "failed"
    met = behaviour.exit_code == 0 and suite.exit_code == 0
    return Finding(met, f"origin main: threshold {'fixed' if behaviour.exit_code == 0 else failure}; "
                        f"suite exit {suite.exit_code} ({summary})")
