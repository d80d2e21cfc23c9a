"""Runs on the judge kit in a judge container (trusted python3 -I -S, in the launcher): POST /v2/readings served on
the configured ingest host with every certificate variant `judgekit.tls` issues from the partner root, and
`bin/meterdrop upload FILE` run in every deployment context against each; then tests/run.sh. argv[1]: JSON {workdir,
host, wrong_name, port, root, token, upload_name, upload, goal_context, suite}."""

import hashlib
import json
import os
import sys
import tempfile

from judgekit import report, tls

config = json.loads(sys.argv[1])


def ingest(method: str, path: str, headers: dict, body: bytes) -> tuple[int, dict]:
    """The partner ingest API: one batch per CSV body whose X-Batch-Sha256 matches, for the bearer token only."""
    if headers.get("authorization") != f"Bearer {config['token']}":
        return 401, {"error": "unauthorized"}
    if method != "POST" or path.split("?")[0].rstrip("/") != "/v2/readings":
        return 404, {"error": "not found"}
    digest = hashlib.sha256(body).hexdigest()
    if headers.get("x-batch-sha256", "").lower() != digest:
        return 400, {"error": "X-Batch-Sha256 does not match the body"}
    return 202, {"batch_id": f"btc_{digest[:12]}", "rows": max(body.count(b"\n") - 1, 0)}


upload = os.path.join(tempfile.mkdtemp(prefix="meterdrop-reads-"), config["upload_name"])
with open(upload, "w", encoding="utf-8") as handle:
    handle.write(config["upload"])
variants = tls.issue(tuple(config["root"]), [config["host"]], config["wrong_name"])
tls.point_here([config["host"]])
given = {"AQUALEDGER_TOKEN": config["token"]}
with tls.Endpoint(variants, [config["port"]], app=ingest) as endpoint:
    runs = tls.exercise(endpoint, {"upload": f"bin/meterdrop upload {upload}"}, config["workdir"], given=given,
                        control=config["goal_context"])
suite = tls.run_job(config["goal_context"], config["suite"], config["workdir"], given=given, timeout=240)
report({"runs": runs, "suite": suite})
