"""The trusted toolchain: the base image's own `/usr` (merged-usr Debian: every binary, library and the dynamic
loader) in a read-only volume, mounted over `/usr` of containers that judge what an agent left behind.

The volume is filled by the engine itself (a new volume mounted where an image has files gets a copy of them), so
no binary of any agent is ever involved; it is named after the base image's id and made once per engine.

Trusted binaries still read configuration from `/etc`, which is the agent's: the dynamic loader's cache and
preload list, the name-service switch (which loads libraries by name) and OpenSSL's configuration (which loads
providers: code). Judge containers get the base image's copies of those files (`TRUSTED_ETC`).
"""

from __future__ import annotations

import io
import tarfile
import threading

import docker
from docker.errors import NotFound
from docker.types import Mount

from authoring.sandbox.containers import force_remove
from authoring.sandbox.session import ROLE_LABEL

VOLUME_PREFIX = "v3ast-trusted-usr"
COMPLETE_MARK = ".v3ast-trusted-complete"
TRUSTED_ETC = ("ld.so.cache", "nsswitch.conf", "ssl/openssl.cnf")
"""Files of `/etc` that make a trusted binary load code; `ld.so.preload` is emptied besides."""
_volumes: dict[str, str] = {}
_etc: dict[str, bytes] = {}
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
        client.volumes.create(name, labels={ROLE_LABEL: "trusted-toolchain"})
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
        client.volumes.create(name, labels={ROLE_LABEL: "trusted-toolchain"})
    raise RuntimeError(f"could not fill the trusted toolchain volume {name} from {base_image}")


def judge_mounts(volume: str) -> list[Mount]:
    """Mounts of a judge container: the trusted `/usr` read-only, and a fresh volume at `/usr/local` that the
    engine fills from the snapshot (where pip and the agent install things the delivered code may need)."""
    return [Mount("/usr", volume, type="volume", read_only=True), Mount("/usr/local", None, type="volume")]


def trusted_etc(client: docker.DockerClient, base_image: str) -> bytes:
    """A tar archive, to be extracted at `/etc`, of the base image's own `TRUSTED_ETC` files and an empty
    `ld.so.preload`; read once per base image from a container that never starts."""
    base_id = client.images.get(base_image).id
    with _lock:
        if base_id not in _etc:
            _etc[base_id] = _read_etc(client, base_image)
        return _etc[base_id]


def _read_etc(client: docker.DockerClient, base_image: str) -> bytes:
    reader = client.containers.create(base_image, ["true"], network_mode="none")
    buffer = io.BytesIO()
    try:
        with tarfile.open(fileobj=buffer, mode="w") as archive:
            for name in TRUSTED_ETC:
                chunks, _ = reader.get_archive(f"/etc/{name}")
                with tarfile.open(fileobj=io.BytesIO(b"".join(chunks))) as single:
                    member = single.getmembers()[0]
                    if not member.isfile():
                        raise RuntimeError(f"/etc/{name} of {base_image} is not a regular file")
                    member.name = name
                    archive.addfile(member, single.extractfile(member))
            archive.addfile(tarfile.TarInfo("ld.so.preload"), io.BytesIO(b""))
    finally:
        force_remove(reader)
    return buffer.getvalue()
