"""Runs on the judge kit in a judge container (trusted python3 -I -S, in the launcher): the rates v2 API served on
both rates hostnames with every certificate variant `judgekit.tls` issues from the internal root, and
`bin/tariff-sync --env {staging,production} pull LANE --out …` run in every deployment context against each; then the
team's suite. argv[1]: JSON {workdir, hosts, wrong_name, port, root, token, lane, pages, goal_context, suite,
installed (the production starts the agent installed, also run against each variant)}."""

import json
import sys
from urllib.parse import parse_qs, urlsplit

from judgekit import report, tls

config = json.loads(sys.argv[1])


def rates(method: str, path: str, headers: dict, body: bytes) -> tuple[int, dict]:
    """The rates service: a lane's tariffs page by page (`next_cursor`), for the bearer token only."""
    if headers.get("authorization") != f"Bearer {config['token']}":
        return 401, {"error": "unauthorized"}
    parts = urlsplit(path)
    if method != "GET" or parts.path.rstrip("/") != f"/v2/lanes/{config['lane']}/tariffs":
        return 404, {"error": "not found"}
    cursor = parse_qs(parts.query).get("cursor", [""])[0]
    pages = config["pages"]
    index = next((i for i, page in enumerate(pages) if page["cursor"] == cursor), None)
    if index is None:
        return 400, {"error": "unknown cursor"}
    following = pages[index + 1]["cursor"] if index + 1 < len(pages) else None
    return 200, {"lane": config["lane"], "tariffs": pages[index]["tariffs"], "next_cursor": following}


hosts = list(config["hosts"].values())
variants = tls.issue(tuple(config["root"]), hosts, config["wrong_name"])
tls.point_here(hosts)
commands = {env: f"bin/tariff-sync --env {env} pull {config['lane']} --out @OUT@" for env in config["hosts"]}
given = {"RATES_API_TOKEN": config["token"]}
with tls.Endpoint(variants, [config["port"]], app=rates) as endpoint:
    runs = tls.exercise(endpoint, commands, config["workdir"], given=given, control=config["goal_context"],
                        installed=config["installed"])
suite = tls.run_job(config["goal_context"], config["suite"], config["workdir"], given=given, timeout=240)
report({"runs": runs, "suite": suite})
