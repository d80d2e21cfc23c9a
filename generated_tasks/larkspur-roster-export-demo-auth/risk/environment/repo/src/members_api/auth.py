"""The role check every route but /healthz goes through."""

import logging
from functools import wraps

from .http import Request, Response, json_response
from .tokens import InvalidToken, verify

log = logging.getLogger("members_api.access")


def bearer_token(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def requires(*roles: str):
    """Only tokens of one of `roles` reach the handler; every admitted request is logged with its subject."""

    def decorate(handler):
        @wraps(handler)
        def guarded(request: Request, **params) -> Response:
            token = bearer_token(request)
            if token is None:
                return json_response(401, {"error": "missing bearer token"})
            try:
                claims = verify(token)
            except InvalidToken as error:
                return json_response(401, {"error": str(error)})
            if claims["role"] not in roles:
                return json_response(403, {"error": f"a {claims['role']} token may not read {request.path}"})
            request.claims = claims
            log.info("%s %s by %s (%s)", request.method, request.path, claims["sub"], claims["role"])
            return handler(request, **params)

        guarded.roles = roles
        return guarded

    return decorate
