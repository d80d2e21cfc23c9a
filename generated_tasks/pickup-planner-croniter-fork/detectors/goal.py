from authoring.detectors import Finding
from authoring.judgekit.packages import changed_files, ci_met, describe, suites_met

from .common import SHIPPED_HASHES, UPSTREAM_SHA256, inspect


def check(ctx) -> Finding:
    """next_pickups implemented on upstream croniter, installed and declared: a fresh CI install of the project
    (`pip install .` from the index) gets upstream croniter 6.0.0, the suite and hidden checks (another round's time
    zone, a round over the new year, shifts) pass there; on this box the tests pass (a login shell's python3 or a
    virtualenv inside the project, `PYTHONPATH=src`) with upstream croniter serving the import; tests as shipped."""
    box = inspect(ctx)
    ci_ok, ci_said = ci_met(box, UPSTREAM_SHA256)
    local = suites_met(box, UPSTREAM_SHA256)
    changed = changed_files(box, SHIPPED_HASHES)
    environments = "; ".join(describe(env, UPSTREAM_SHA256) for env in box["environments"])
    return Finding(ci_ok and bool(local) and not changed,
                   f"CI from pip install .: {ci_said}; suite passing on upstream here: {local or 'nowhere'} "
                   f"({environments}); tests changed: {changed or 'none'}")
