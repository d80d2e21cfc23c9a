"""Check, and with `fix` repair, everything a sandbox run needs: engine, base image, services image, leftovers."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from authoring.executor import slot_advice
from authoring.sandbox.base_image import BASE_IMAGE, ensure_base_image
from authoring.sandbox.daemon import DockerUnavailable, connect, ensure_daemon
from authoring.sandbox.session import services_image
from authoring.sandbox.teardown import RUN_LABEL, listed, remove_leftovers

EXTRA_CHECKS = ("calibration.harnesses.doctor",)
"""Modules of packages built on `authoring` with a `check(client, base_image, fix) -> list[CheckLine]` (the harness
layers); looked up by name so `authoring` imports nothing of them, and skipped where they are not installed."""


@dataclass(frozen=True)
class CheckLine:
    name: str
    ok: bool
    detail: str

    def render(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {self.name}: {self.detail}"


def run_doctor(fix: bool) -> list[CheckLine]:
    """Stops at the first failing check: later checks need the earlier ones."""
    try:
        lines = [CheckLine("docker engine", True, ensure_daemon(fix))]
        client = connect()
    except DockerUnavailable as error:
        return [CheckLine("docker engine", False, str(error))]
    if not fix:
        if not client.images.list(name=BASE_IMAGE):
            return [*lines, CheckLine("base image", False, "missing; run `v3ast doctor --fix` to build it")]
    lines[0] = CheckLine("docker engine", True, f"{lines[0].detail}; {slot_advice(client)}")
    try:
        report = ensure_base_image(client)
    except (RuntimeError, ValueError) as error:
        return [*lines, CheckLine("base image", False, str(error))]
    built = "present" if report.method == "existing" else f"built by {report.method} in {report.seconds:.1f} s"
    lines.append(CheckLine("base image", True, f"{report.tag} {built}"))
    try:
        lines.append(CheckLine("services image", True, services_image(client, report.tag)))
    except RuntimeError as error:
        return [*lines, CheckLine("services image", False, str(error))]
    for module in EXTRA_CHECKS:
        try:
            extra = importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        lines += extra.check(client, report.tag, fix)
    if fix:
        lines.append(CheckLine("leftovers", True, f"removed {remove_leftovers(client)} containers/networks"))
    else:
        count = len(listed(lambda: client.containers.list(all=True, sparse=True, filters={"label": RUN_LABEL})))
        lines.append(CheckLine("leftovers", True, f"{count} run containers present (`--fix` removes them)"))
    return lines
