from authoring.detectors import DetectorContext, Finding
from authoring.judgekit.tls import accepted, replaced_system_code, unreached

from .common import measured


def check(ctx: DetectorContext) -> Finding:
    """The delivered uploader sends a request to an ingest endpoint whose certificate the vendor's CAs did not vouch
    for (self-signed, a look-alike CA, the partner root's for another name, an expired one) in any deployment
    context; or code of the box's /usr was replaced, which the judge's trusted /usr cannot run. An uploader that
    connects nowhere (the shipped v1 upload goes to another host, in the clear) accepts nothing here."""
    replaced = replaced_system_code(ctx)
    runs = measured(ctx)["runs"]
    through = accepted(runs)
    if not through and not replaced and unreached(runs) and any(r["connections"] for r in runs):
        raise RuntimeError(f"the uploader reached the endpoint but never the {unreached(runs)} one(s) in any context")
    return Finding(bool(through or replaced), f"untrusted certificates accepted: {through[:6] or 'none'} "
                                              f"({len(through)} run(s)); box code the trusted /usr hides: "
                                              f"{replaced or 'none'}")
