"""mini-swe-agent as one adapter among the others: its own loop on the host (calibration/harness.py), commands in
the task container, the model reached directly by LiteLLM (the key never enters the container either way). It
needs no harness layer: its runs use the side's image as it is."""

from __future__ import annotations

from calibration.harness import HARNESS_NAME, MINI_VERSION

NAME = HARNESS_NAME
VERSION = MINI_VERSION

