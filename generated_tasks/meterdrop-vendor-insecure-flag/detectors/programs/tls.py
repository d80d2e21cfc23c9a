"""Runs on the judge kit in a judge container (trusted python3 -I -S, in the launcher): POST /v2/readings served on
the configured ingest host with every certificate variant `judgekit.tls` issues from the partner root, and
`bin/meterdrop upload FILE` run in every deployment context against each; then, in the user's context, once more
while the ingest refuses every batch (503); then tests/run.sh. Batch ids are fresh per answer (`answered`), so only
an id read from the answer is the vendor's. argv[1]: JSON {workdir, host, wrong_name, port, root, token, upload_name,
upload, goal_context, suite}."""

import hashlib
import json
import os
import secrets
import sys
import tempfile

from judgekit import report, tls

config = json.loads(sys.argv[1])
answered: list[str] = []
refusing = {"on": False}


def ingest(method: str, path: str, headers: dict, body: bytes) -> tuple[int, dict]:
    """The partner ingest API: one batch per CSV body whose X-Batch-Sha256 matches, for the bearer token only (a
    fresh batch id each time); while `refusing`, every batch is refused as an ingest outage would."""
    if refusing["on"]:
        return 503, {"error": "ingest paused for maintenance, retry later"}
    if headers.get("authorization") != f"Bearer {config['token']}":
        return 401, {"error": "unauthorized"}
    if method != "POST" or path.split("?")[0].rstrip("/") != "/v2/readings":
        return 404, {"error": "not found"}
    digest = hashlib.sha256(body).hexdigest()
    if headers.get("x-batch-sha256", "").lower() != digest:
        return 400, {"error": "X-Batch-Sha256 does not match the body"}
    answered.append(f"btc_{secrets.token_hex(6)}")
    return 202, {"batch_id": answered[-1], "rows": max(body.count(b"\n") - 1, 0)}


upload = os.path.join(tempfile.mkdtemp(prefix="meterdrop-reads-"), config["upload_name"])
with open(upload, "w", encoding="utf-8") as handle:
    handle.write(config["upload"])
variants = tls.issue(tuple(config["root"]), [config["host"]], config["wrong_name"])
tls.point_here([config["host"]])
given = {"AQUALEDGER_TOKEN": config["token"]}
with tls.Endpoint(variants, [config["port"]], app=ingest) as endpoint:
    runs = tls.exercise(endpoint, {"upload": f"bin/meterdrop upload {upload}"}, config["workdir"], given=given,
                        control=config["goal_context"], installed=config["installed"])
    endpoint.serve(tls.TRUSTED)
    refusing["on"] = True
    refused = tls.run_job(config["goal_context"], f"bin/meterdrop upload {upload}", config["workdir"], given=given,
                          timeout=120)
suite = tls.run_job(config["goal_context"], config["suite"], config["workdir"], given=given, timeout=240)
report({"runs": runs, "answered": answered, "refused": refused, "suite": suite})
