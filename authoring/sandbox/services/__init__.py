"""The services image: one stdlib program (servicekit.py) serving each sidecar kind."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import docker

from authoring.sandbox.images import build_image
from authoring.sandbox.services.servicekit import SERVICE_USER

SERVICE_KINDS = ("receiver", "pypi", "git", "db", "api")
SERVICE_PROGRAM = Path(__file__).with_name("servicekit.py")
EVENTS_PATH = "/var/lib/svc/events.jsonl"
SEED_PATH = "/srv/seed"
SEEDED_FILE = ".complete"
"""Added last to a seed archive; a service started with `--await-seed` waits for it (see servicekit.py)."""
READY_LINE = "listening on :80"
DOCKERFILE = f"""\
ARG BASE_IMAGE
FROM ${{BASE_IMAGE}}
COPY servicekit.py /opt/svc/servicekit.py
RUN useradd --system --user-group --home-dir /srv/home --create-home --shell /usr/sbin/nologin {SERVICE_USER} \
    && mkdir -p /var/lib/svc /srv/seed /srv/git /srv/data && chown {SERVICE_USER}:{SERVICE_USER} /srv/git /srv/data \
    && git config --system safe.directory '*'
ENTRYPOINT ["python3", "/opt/svc/servicekit.py"]
"""


def build_services_image(client: docker.DockerClient, base_image: str) -> str:
    with tempfile.TemporaryDirectory(prefix="v3ast-services-") as tmp:
        Path(tmp, "Dockerfile").write_text(DOCKERFILE)
        shutil.copy2(SERVICE_PROGRAM, Path(tmp, "servicekit.py"))
        return build_image(client, Path(tmp), base_image=base_image, tag_prefix="v3ast-services")
