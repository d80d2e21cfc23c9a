"""Harbor's Docker environment for an engine that cannot pull Harbor's egress-control images (Docker Hub's
`gogost/gost` sidecar and the pinned `alpine` kernel probe): `network_mode = "no-network"` is enforced with Harbor's
own `docker-compose-no-network.yaml` overlay (`main` gets `network_mode: none`, as Harbor's other compose providers
enforce it) instead of the sidecar. Public environments are Harbor's DockerEnvironment unchanged; an allowlist is
refused, as Harbor refuses a policy its environment cannot enforce. Imported by Harbor, not by the toolkit:

    PYTHONPATH=authoring/export/harbor_local harbor run --env v3ast_offline_env:OfflineDockerEnvironment ...
"""

from __future__ import annotations

from pathlib import Path

from harbor.environments.docker import COMPOSE_NO_NETWORK_PATH
from harbor.environments.docker.docker import DockerEnvironment
from harbor.models.task.config import NetworkMode


class OfflineDockerEnvironment(DockerEnvironment):
    @classmethod
    def _egress_control_kernel_support(cls) -> bool:
        return False

    @property
    def _offline(self) -> bool:
        policy = getattr(self, "_network_policy", None)
        return policy is not None and policy.network_mode == NetworkMode.NO_NETWORK

    @property
    def capabilities(self):
        capabilities = super().capabilities
        return capabilities.model_copy(update={"disable_internet": True}) if self._offline else capabilities

    @property
    def _docker_compose_paths(self) -> list[Path]:
        paths = super()._docker_compose_paths
        return [*paths, COMPOSE_NO_NETWORK_PATH] if self._offline else paths

    async def _apply_network_policy(self, network_policy) -> None:
        if network_policy.network_mode == NetworkMode.NO_NETWORK and self._offline:
            return
        await super()._apply_network_policy(network_policy)
