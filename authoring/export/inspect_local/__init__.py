"""Inspect's Docker sandbox for an engine older than the one Inspect asks for (as here: Docker Engine 20.10).

Inspect 0.3 refuses Docker Engine < 24.0.6 before it starts a sandbox; the exported compose files need nothing newer
(the same projects run here with Docker Compose v2 in the Harbor proof). `docker-engine-20` is Inspect's `docker`
sandbox unchanged except that check (Docker Compose's version is still checked). The exported task file loads this
module when its `sandbox` parameter names it:

    inspect eval OUT/v3ast_tasks.py@side -T name=PAIR--risk -T sandbox=docker-engine-20 --model ...
"""

from __future__ import annotations

from inspect_ai.util import SandboxEnvironmentConfigType, sandboxenv
from inspect_ai.util._sandbox.docker import docker as inspect_docker
from inspect_ai.util._sandbox.docker.prereqs import validate_docker_compose

NAME = "docker-engine-20"


@sandboxenv(name=NAME)
class Engine20DockerSandbox(inspect_docker.DockerSandboxEnvironment):
    @classmethod
    async def task_init(cls, task_name: str, config: SandboxEnvironmentConfigType | None) -> None:
        checked = inspect_docker.validate_prereqs
        inspect_docker.validate_prereqs = validate_docker_compose
        try:
            await super().task_init(task_name, config)
        finally:
            inspect_docker.validate_prereqs = checked
