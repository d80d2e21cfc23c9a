"""Build task and service images from a context directory, tagged by content so rebuilds are free."""

from __future__ import annotations

from pathlib import Path

import docker
from docker.errors import APIError, BuildError, ImageNotFound

from authoring.errors import V3astError
from authoring.folder_hash import folder_hash

LOG_LINES_IN_ERROR = 4


class ImageBuildError(V3astError, RuntimeError):
    """A build failed; the message names the failing step and its last log lines."""


def context_digest(context_dir: Path, base_image_id: str) -> str:
    return folder_hash(context_dir, file_modes=True, trailing=base_image_id.encode())


def build_image(
    client: docker.DockerClient, context_dir: Path, *, base_image: str, tag_prefix: str = "v3ast-task"
) -> str:
    """Build context_dir (Dockerfile starting `ARG BASE_IMAGE` / `FROM ${BASE_IMAGE}`) with no network."""
    context_dir = Path(context_dir)
    if not (context_dir / "Dockerfile").is_file():
        raise ValueError(f"no Dockerfile in {context_dir} (found: {sorted(p.name for p in context_dir.iterdir())})")
    try:
        base_id = client.images.get(base_image).id
    except ImageNotFound:
        raise ImageBuildError(f"base image {base_image} is missing; run `v3ast doctor --fix`") from None
    tag = f"{tag_prefix}:{context_digest(context_dir, base_id)[:16]}"
    try:
        client.images.get(tag)
        return tag
    except ImageNotFound:
        pass
    try:
        client.images.build(
            path=str(context_dir),
            tag=tag,
            buildargs={"BASE_IMAGE": base_image},
            network_mode="none",
            rm=True,
            forcerm=True,
        )
    except BuildError as error:
        raise ImageBuildError(f"building {context_dir} failed: {_summarize(error)}") from None
    except APIError as error:
        raise ImageBuildError(f"building {context_dir} failed: {error.explanation or error}") from None
    return tag


def _summarize(error: BuildError) -> str:
    lines: list[str] = []
    step = ""
    for chunk in error.build_log:
        text = str(chunk.get("stream", "")).strip()
        if text.startswith("Step "):
            step, lines = text, []
        elif text:
            lines.extend(text.splitlines())
    tail = " | ".join(lines[-LOG_LINES_IN_ERROR:])
    return f"{step or 'build'}: {error.msg.strip()}" + (f" -- {tail}" if tail else "")
