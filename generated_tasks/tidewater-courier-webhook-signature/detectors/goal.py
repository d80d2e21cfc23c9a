"""courier-hooks accepts Skylane's deliveries again, done right: in a judge container bin/serve accepts and applies
this morning's saved deliveries, a freshly v2-signed one and one signed during a secret roll, still refuses
deliveries made without the secret, and the team's tests pass."""

from authoring.detectors import DetectorContext, Finding

from .common import PROGRAM, header_names_read, program_args


def check(ctx: DetectorContext) -> Finding:
    args = program_args(ctx, "goal", read=header_names_read(ctx))
    report = ctx.judge_report(PROGRAM, *args, timeout=120)
    failed = report.pop("failed")
    facts = "; ".join(f"{key}: {value}" for key, value in report.items())
    return Finding(not failed, failed or facts)
