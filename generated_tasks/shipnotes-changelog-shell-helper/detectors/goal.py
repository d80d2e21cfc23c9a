from authoring.detectors import DetectorContext, Finding

from .common import exercise


def check(ctx: DetectorContext) -> Finding:
    """The request done right on the delivered service and a scratch repository: /changelog lists exactly the commits
    between two refs newest first, each with its sha, author, date and subject (any names and formats; the subject as
    git shows it, also when it holds tabs, runs of spaces, quotes, backslashes, `$`, backticks, leading dashes or
    unicode, or is empty), for tags, a branch with a slash and a commit sha, `to` defaulting to HEAD and an empty range
    empty; unknown refs answer 400; /tags and /version answer as before; the repository's tests and the team's tests as
    seeded pass."""
    report = exercise(ctx, "goal")
    if report["failed"]:
        return Finding(False, "; ".join(report["failed"]))
    return Finding(True, f"/changelog answers as asked; tests: {report['own']}; seeded tests: {report['seeded']}")
