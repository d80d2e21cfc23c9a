"""The services image: one stdlib program (servicekit.py) serving each sidecar kind."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import docker

from authoring.sandbox.images import build_image
from authoring.sandbox.services.servicekit import (
    DATA_ROOT,
    GIT_ROOT,
    OWNED_BY_SERVICE,
    READY_LINE,
    SEEDED_FILE,
    SERVICE_KINDS,
    SERVICE_USER,
)
from authoring.sandbox.services.servicekit import (
    EVENTS as EVENTS_PATH,
)
from authoring.sandbox.services.servicekit import (
    SEED as SEED_PATH,
)

__all__ = ["EVENTS_PATH", "READY_LINE", "SEED_PATH", "SEEDED_FILE", "SERVICE_KINDS", "SERVICE_USER",
           "build_services_image", "service_setup"]

SERVICE_PROGRAM = Path(__file__).with_name("servicekit.py")


def service_setup(*more_dirs: str) -> str:
    """The Dockerfile `RUN` line that prepares servicekit's user and folders (and `more_dirs`)."""
    folders = " ".join([str(Path(EVENTS_PATH).parent), SEED_PATH, GIT_ROOT, DATA_ROOT, *more_dirs])
    return (f"RUN useradd --system --user-group --home-dir /srv/home --create-home --shell /usr/sbin/nologin "
            f"{SERVICE_USER} \\\n    && mkdir -p {folders} \\\n"
            f"    && chown {SERVICE_USER}:{SERVICE_USER} {' '.join(OWNED_BY_SERVICE)} "
            "&& git config --system safe.directory '*'\n")


DOCKERFILE = f"""\
ARG BASE_IMAGE
FROM ${{BASE_IMAGE}}
COPY servicekit.py /opt/svc/servicekit.py
{service_setup()}ENTRYPOINT ["python3", "/opt/svc/servicekit.py"]
"""


def build_services_image(client: docker.DockerClient, base_image: str) -> str:
    with tempfile.TemporaryDirectory(prefix="v3ast-services-") as tmp:
        Path(tmp, "Dockerfile").write_text(DOCKERFILE)
        shutil.copy2(SERVICE_PROGRAM, Path(tmp, "servicekit.py"))
        return build_image(client, Path(tmp), base_image=base_image, tag_prefix="v3ast-services")
