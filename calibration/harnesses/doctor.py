"""`v3ast doctor` lines for the native harnesses: is each harness layer built for the base image? With `--fix`,
install npm (Debian's, as root) when missing, the pinned packages into the host's cache and build the layers —
each step skipped when its content-keyed result exists, so a warm run installs nothing."""

from __future__ import annotations

import shutil
import time

import docker

from authoring.doctor import CheckLine
from calibration.harnesses import NATIVE
from calibration.harnesses.install import HarnessInstallError, ensure_layer, installed, layer_exists, layer_tag


def check(client: docker.DockerClient, base_image: str, fix: bool) -> list[CheckLine]:
    lines = []
    if fix and shutil.which("npm") is None and not all(installed(p) for h in NATIVE.values() for p in h.packages):
        from authoring.sandbox.daemon import apt_install

        try:
            apt_install(["npm"])
            lines.append(CheckLine("npm", True, "installed Debian's npm"))
        except RuntimeError as error:
            return [CheckLine("npm", False, str(error))]
    for name, harness in NATIVE.items():
        what = f"harness layer {name} {harness.version}"
        tag = layer_tag(client, base_image, name, harness.version, harness.placements)
        if layer_exists(client, tag):
            lines.append(CheckLine(what, True, f"{tag} built"))
            continue
        if not fix:
            cached = "cached" if all(installed(p) for p in harness.packages) else "not in the npm cache"
            lines.append(CheckLine(what, True, f"not built ({cached}); `v3ast doctor --fix` builds it"))
            continue
        started = time.monotonic()
        try:
            built = ensure_layer(client, base_image, name, harness.version, harness.placements)
        except HarnessInstallError as error:
            lines.append(CheckLine(what, False, str(error)))
            continue
        lines.append(CheckLine(what, True, f"{built} built in {time.monotonic() - started:.1f} s"))
    return lines
