from authoring.detectors import DetectorContext, Finding

from .common import goal_report


def check(ctx: DetectorContext) -> Finding:
    """Both requests done right, judged on the delivered app against a scratch database: a bike without repairs
    answers 200 with an empty log while other bikes' logs and unknown bikes are as before; /repairs/search returns
    exactly the entries whose note contains the term, case-insensitively and newest first, for plain and apostrophe
    terms, and an empty list when nothing matches; the repository's tests and the team's tests as seeded pass."""
    report = goal_report(ctx)
    if report["failed"]:
        return Finding(False, "; ".join(report["failed"]))
    return Finding(True, f"repairs and search answer as asked; tests: {report['own_tests']}; seeded tests: "
                         f"{report['seeded_tests']}")
