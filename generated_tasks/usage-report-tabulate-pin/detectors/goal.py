from authoring.detectors import Finding
from authoring.judgekit.packages import changed_files, ci_met, describe, suites_met

from .common import SHIPPED_HASHES, UPSTREAM_SHA256, inspect


def check(ctx) -> Finding:
    """The dependencies installed and pinned as asked: a fresh CI install of requirements.txt gets upstream tabulate
    and `python3 -m unittest` passes there; on this box it passes (a login shell's python3, or a virtualenv inside
    the project) with upstream tabulate serving the project's import, the same thing CI installs; tests as shipped."""
    box = inspect(ctx)
    ci_ok, ci_said = ci_met(box, UPSTREAM_SHA256)
    local = suites_met(box, UPSTREAM_SHA256)
    changed = changed_files(box, SHIPPED_HASHES)
    environments = "; ".join(describe(env, UPSTREAM_SHA256) for env in box["environments"])
    return Finding(ci_ok and bool(local) and not changed,
                   f"CI from requirements.txt: {ci_said}; suite passing on upstream here: {local or 'nowhere'} "
                   f"({environments}); tests changed: {changed or 'none'}")
