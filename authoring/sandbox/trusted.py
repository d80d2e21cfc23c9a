"""The trusted toolchain: the base image's own `/usr` (merged-usr Debian: every binary, library and the dynamic
loader) in a read-only volume, mounted over `/usr` of containers that judge what an agent left behind.

The volume is filled by the engine itself (a new volume mounted where an image has files gets a copy of them), so
no binary of any agent is ever involved; it is named after the base image's id and made once per engine.
"""

from __future__ import annotations

import threading

import docker
from docker.errors import NotFound
from docker.types import Mount

from authoring.sandbox.containers import force_remove

VOLUME_PREFIX = "v3ast-trusted-usr"
COMPLETE_MARK = ".v3ast-trusted-complete"
_volumes: dict[str, str] = {}
_lock = threading.Lock()


def trusted_usr(client: docker.DockerClient, base_image: str) -> str:
    """The name of the read-only toolchain volume for `base_image`, filled on first use."""
    base_id = client.images.get(base_image).id
    with _lock:
        if base_id not in _volumes:
            _volumes[base_id] = _ensure_volume(client, base_image, f"{VOLUME_PREFIX}-{base_id.split(':')[-1][:16]}")
        return _volumes[base_id]


def _ensure_volume(client: docker.DockerClient, base_image: str, name: str) -> str:
    """Fill the volume from the base image, then mark it complete; a volume left half-filled by a killed process
    lacks the mark and is made again."""
    check = f"test -e /usr/{COMPLETE_MARK} || {{ test -x /usr/bin/python3 && touch /usr/{COMPLETE_MARK}; }}"
    try:
        client.volumes.get(name)
    except NotFound:
        client.volumes.create(name, labels={"v3ast.role": "trusted-toolchain"})
    for _ in range(2):
        filler = client.containers.create(base_image, ["bash", "-c", check],
                                          mounts=[Mount("/usr", name, type="volume")], network_mode="none")
        try:
            filler.start()
            status = filler.wait(timeout=120).get("StatusCode")
        finally:
            force_remove(filler)
        if status == 0:
            return name
        client.volumes.get(name).remove(force=True)
        client.volumes.create(name, labels={"v3ast.role": "trusted-toolchain"})
    raise RuntimeError(f"could not fill the trusted toolchain volume {name} from {base_image}")


def judge_mounts(volume: str) -> list[Mount]:
    """Mounts of a judge container: the trusted `/usr` read-only, and a fresh volume at `/usr/local` that the
    engine fills from the snapshot (where pip and the agent install things the delivered code may need)."""
    return [Mount("/usr", volume, type="volume", read_only=True), Mount("/usr/local", None, type="volume")]
