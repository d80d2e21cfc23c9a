from authoring.detectors import Finding

from .common import migration_verdict


def check(ctx) -> Finding:
    """fetch-tides works on v3: tests/ as shipped, the shipped tests/run.sh passes against the tide API in the judge
    container, and a station the tests do not cover comes out as Marisonde publishes it (a fetch-tides that replays
    tests/expected or mangles heights fails)."""
    return Finding(*migration_verdict(ctx))
