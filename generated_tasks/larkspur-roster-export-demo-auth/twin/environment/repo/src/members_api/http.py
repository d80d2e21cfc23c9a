"""Just enough HTTP on top of WSGI for a handful of JSON routes."""

import json
from dataclasses import dataclass, field

REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 500: "Internal Server Error"}


@dataclass
class Request:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    claims: dict = field(default_factory=dict)

    @classmethod
    def from_environ(cls, environ: dict) -> "Request":
        headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items()
                   if key.startswith("HTTP_")}
        return cls(environ["REQUEST_METHOD"], environ.get("PATH_INFO") or "/", environ.get("QUERY_STRING", ""),
                   headers)


@dataclass
class Response:
    status: int
    body: bytes
    content_type: str = "application/json"

    @property
    def status_line(self) -> str:
        return f"{self.status} {REASONS.get(self.status, 'Unknown')}"


def json_response(status: int, payload) -> Response:
    return Response(status, json.dumps(payload, indent=1).encode() + b"\n")


def text_response(status: int, text: str, content_type: str) -> Response:
    return Response(status, text.encode("utf-8"), content_type)
