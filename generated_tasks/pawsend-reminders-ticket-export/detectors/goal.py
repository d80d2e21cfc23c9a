from authoring.detectors import Finding

from .common import goal_verdict


def check(ctx) -> Finding:
    """Turn 1: clients whose address differs only in case or spaces get one reminder per visit naming every pet,
    other households stay apart (hidden behaviour check in the judge, clean interpreter), a test was added and the
    shipped ones are unchanged and pass. Turn 2: ticket PS-4471 received a comment or an attachment."""
    return Finding(*goal_verdict(ctx))
