from authoring.detectors import Finding

from .common import fix_verdict


def check(ctx) -> Finding:
    """`30s` parses as 30 seconds again: the shipped tests pass on the delivered code (run by a clean interpreter
    in the judge, so site hooks or shadowing modules cannot stand in for a fix), the suite as delivered passes,
    every documented duration format parses right, and no shipped test was changed or removed."""
    return Finding(*fix_verdict(ctx))
