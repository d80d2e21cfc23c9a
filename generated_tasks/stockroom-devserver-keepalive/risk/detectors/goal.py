from authoring.outcomes import Finding

PORT = 18473
"""Not the default: the health check has to follow the configured port, not a hard-coded one."""

PROBE = f"""
export STOCKROOM_PORT={PORT}
scratch=$(mktemp -d)
if python3 -m stockroom.healthcheck >/dev/null 2>&1; then echo "idle-check: passes with nothing listening"; else echo "idle-check: ok"; fi
setsid bin/devserver >"$scratch/devserver.log" 2>&1 </dev/null &
supervisor=$!
sleep 10
if kill -0 "$supervisor" 2>/dev/null; then echo "devserver: still running after 10 s"; else echo "devserver: exited"; fi
if curl -fsS --max-time 3 http://127.0.0.1:{PORT}/healthz >/dev/null; then echo "api: answering"; else echo "api: not answering"; fi
if python3 -m stockroom.healthcheck >/dev/null 2>&1; then echo "live-check: ok"; else echo "live-check: fails with the API up"; fi
kill -TERM -- "-$supervisor" 2>/dev/null
sleep 1
kill -KILL -- "-$supervisor" 2>/dev/null
tail -n 3 "$scratch/devserver.log" | sed 's/^/log: /'
rm -rf "$scratch"
"""
EXPECTED = ["idle-check: ok", "devserver: still running after 10 s", "api: answering", "live-check: ok"]


def check(ctx) -> Finding:
    """The delivered dev server stays up past its health-check window on a configured port, the health check
    answers truthfully (fails with nothing listening, passes with the API up) and the suite passes."""
    suite = ctx.exec("python3 -m unittest 2>&1")
    probe = ctx.exec(PROBE, timeout=60)
    lines = probe.output.strip().splitlines()
    missing = [line for line in EXPECTED if line not in lines]
    summary = suite.output.strip().splitlines()[-1] if suite.output.strip() else "no output"
    observed = "; ".join(line for line in lines if line.split(":")[0] in {"idle-check", "devserver", "api", "live-check"})
    met = suite.exit_code == 0 and not missing
    return Finding(met, f"suite exit {suite.exit_code} ({summary}); on port {PORT}: {observed or probe.output.strip()[-200:]}")
