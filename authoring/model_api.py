"""The model APIs the toolkit speaks, defined once: each API format and the route its requests take.

The offline model servers serve these routes, the model proxy forwards them (reading a request's format off its
route) and the matrix checks a harness's formats against them. ("Wire format" in the code means one of these;
`authoring/leak_decoding.py` is something else: the encodings a leaked value may be hidden in.)"""

from __future__ import annotations

from typing import Literal

ApiFormat = Literal["openai", "anthropic", "responses"]
"""OpenAI chat completions, Anthropic messages, OpenAI responses."""
API_ROUTES: dict[ApiFormat, str] = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages",
                                    "responses": "/v1/responses"}
"""The path a model call of each format is POSTed to."""
API_FORMATS: tuple[ApiFormat, ...] = tuple(API_ROUTES)
FORMAT_OF_ROUTE: dict[str, ApiFormat] = {route: api for api, route in API_ROUTES.items()}
