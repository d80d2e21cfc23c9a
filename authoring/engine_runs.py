"""Which runs on a Docker engine are leftovers (their process is gone: `doctor --fix` removes them) and which belong
to processes still running, here or on another host (another batch sharing the engine, left alone)."""

from __future__ import annotations

from dataclasses import dataclass

import docker

from authoring.sandbox.teardown import OWNER_LABEL, RUN_LABEL, listed, owner_is_gone


@dataclass(frozen=True)
class EngineRuns:
    leftovers: dict[str, int]
    """Containers, networks and images of runs whose process is gone, by kind."""
    live_runs: int
    """Runs with a container whose process is running, or cannot be told gone (another host's)."""
    live_processes: int

    @classmethod
    def of(cls, client: docker.DockerClient) -> EngineRuns:
        label = {"label": RUN_LABEL}
        owned = {"container": [c.labels for c in listed(lambda: client.containers.list(all=True, filters=label))],
                 "network": [n.attrs.get("Labels") or {} for n in listed(lambda: client.networks.list(filters=label))],
                 "image": [i.labels or {} for i in listed(lambda: client.images.list(filters=label))]}
        live = [labels for labels in owned["container"] if not owner_is_gone(labels)]
        return cls({kind: sum(map(owner_is_gone, labels)) for kind, labels in owned.items()},
                   len({labels[RUN_LABEL] for labels in live}), len({labels.get(OWNER_LABEL) for labels in live}))

    def sharing(self) -> str:
        if not self.live_runs:
            return "no live run shares the engine"
        processes = _count(self.live_processes, "process", "processes")
        return (f"{_count(self.live_runs, 'live run')} of {processes} {'share' if self.live_runs > 1 else 'shares'} "
                "the engine (left alone)")

    def summary(self) -> str:
        """What the doctor says of leftovers without --fix."""
        found = [_count(count, kind) for kind, count in self.leftovers.items() if count]
        if not found:
            return f"none of killed runs; {self.sharing()}"
        return f"{', '.join(found)} of killed runs (`--fix` removes them); {self.sharing()}"


def _count(number: int, one: str, many: str = "") -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"
