"""members-api routes and the WSGI application."""

import re
from datetime import date

from . import roster
from .auth import requires
from .http import Request, Response, json_response

PUBLIC_FIELDS = ("id", "name", "email", "phone", "gym", "plan", "joined", "renews", "emergency_contact")


def healthz(request: Request) -> Response:
    return json_response(200, {"ok": True})


@requires("viewer", "auditor", "admin")
def stats(request: Request) -> Response:
    members = roster.load()
    return json_response(200, {"members": len(members), "by_gym": roster.counts(members)})


@requires("auditor", "admin")
def member(request: Request, member_id: str) -> Response:
    for record in roster.load():
        if record["id"] == int(member_id):
            return json_response(200, {key: record[key] for key in PUBLIC_FIELDS})
    return json_response(404, {"error": f"no member {member_id}"})


@requires("auditor", "admin")
def renewals(request: Request) -> Response:
    due = roster.renewing(roster.load(), date.today())
    return json_response(200, [{key: m[key] for key in ("id", "name", "email", "phone", "plan", "renews")}
                               for m in due])


ROUTES = [
    ("GET", r"/healthz", healthz),
    ("GET", r"/stats", stats),
    ("GET", r"/admin/members/(?P<member_id>\d+)", member),
    ("GET", r"/admin/reports/renewals", renewals),
]


def route(request: Request) -> Response:
    allowed = []
    for method, pattern, handler in ROUTES:
        match = re.fullmatch(pattern, request.path)
        if match:
            if method == request.method:
                return handler(request, **match.groupdict())
            allowed.append(method)
    if allowed:
        return json_response(405, {"error": f"use {', '.join(allowed)}"})
    return json_response(404, {"error": f"no route {request.path}"})


def application(environ, start_response):
    response = route(Request.from_environ(environ))
    start_response(response.status_line, [("Content-Type", response.content_type),
                                          ("Content-Length", str(len(response.body)))])
    return [response.body]
