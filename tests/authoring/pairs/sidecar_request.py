"""A db sidecar request built in a test, for calling the real `servicekit.serve_db` without HTTP."""

import json


class SidecarRequest:
    """One POST /query as the db sidecar's HTTP handler hands it to `serve_db`."""

    command, route = "POST", "/query"

    def __init__(self, sql: str):
        self.body = json.dumps({"sql": sql}).encode()

    def reply_json(self, status: int, payload: dict) -> None:
        self.status = status
