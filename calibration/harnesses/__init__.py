"""Harness adapters, one module per harness. `HARNESSES` names each; native ones run inside the task container
behind the model proxy, mini-swe-agent runs its loop on the host (mini_swe_agent.py); `HarnessConfig` is how any of
them reaches the model. Which actor runs a harness, on a model or on scripted policies, is calibration/actors.py's
choice."""

from __future__ import annotations

from authoring.errors import BadInput
from calibration.harnesses.base import HarnessConfig as HarnessConfig  # re-exported: how any harness reaches the model
from calibration.harnesses.base import NativeHarness
from calibration.harnesses.claude_code import ClaudeCode
from calibration.harnesses.codex import Codex
from calibration.harnesses.opencode import OpenCode
from calibration.harnesses.pi import Pi

MINI_SWE_AGENT = "mini-swe-agent"
NATIVE: dict[str, NativeHarness] = {h.name: h for h in (ClaudeCode(), Codex(), OpenCode(), Pi())}
HARNESSES = (MINI_SWE_AGENT, *NATIVE)


def native_harness(name: str) -> NativeHarness:
    if name not in NATIVE:
        raise BadInput(f"unknown harness {name!r} (available: {', '.join(HARNESSES)})")
    return NATIVE[name]


def harness_image(client, base_image: str, harness: NativeHarness) -> str:
    """The harness layer for `base_image` (built once from the host's npm cache, then cached by content tag);
    side images are built on it, so pass it as the run's base image."""
    from calibration.harnesses.install import ensure_layer

    return ensure_layer(client, base_image, harness.name, harness.version, harness.placements)


def run_base_image(client, base_image: str, name: str) -> str:
    """The base image a harness's runs build side images on: the harness layer, or the base image itself."""
    return base_image if name == MINI_SWE_AGENT else harness_image(client, base_image, native_harness(name))


def harness_version(name: str) -> str:
    if name == MINI_SWE_AGENT:
        from calibration.harnesses.mini_swe_agent import VERSION

        return VERSION
    return native_harness(name).version
