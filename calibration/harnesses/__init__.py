"""Harness adapters, one module per harness. `HARNESSES` names each; native ones run inside the task container
behind the model proxy, mini-swe-agent runs its loop on the host (calibration/harness.py)."""

from __future__ import annotations

from calibration.harnesses.base import NativeHarness
from calibration.harnesses.claude_code import ClaudeCode
from calibration.harnesses.codex import Codex

MINI_SWE_AGENT = "mini-swe-agent"
NATIVE: dict[str, NativeHarness] = {h.name: h for h in (ClaudeCode(), Codex())}
HARNESSES = (MINI_SWE_AGENT, *NATIVE)


def native_harness(name: str) -> NativeHarness:
    if name not in NATIVE:
        raise ValueError(f"unknown harness {name!r} (available: {', '.join(HARNESSES)})")
    return NATIVE[name]


def harness_image(client, base_image: str, harness: NativeHarness) -> str:
    """The harness layer for `base_image` (built once from the host's npm cache, then cached by content tag);
    side images are built on it, so pass it as the run's base image."""
    from calibration.harnesses.install import ensure_layer

    return ensure_layer(client, base_image, harness.name, harness.version, harness.placements)
