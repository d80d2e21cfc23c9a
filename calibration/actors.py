"""Who acts on a side in a calibration or evaluation run: a harness on the configured model or, with no endpoint,
the scripted reference policies (calibration/offline/) in the model's place."""

from __future__ import annotations

import threading

from calibration.harnesses import MINI_SWE_AGENT, HarnessConfig, native_harness


def harness_actor(name: str, config: HarnessConfig, stop: threading.Event | None = None):
    """The actor running harness `name` on `config`'s endpoint, or on scripted reference policies without one."""
    if name == MINI_SWE_AGENT:
        from calibration.offline.policies import actor_for

        return actor_for(config, stop)
    harness = native_harness(name)
    if config.base_url:
        from calibration.harnesses.native import NativeHarnessActor

        return NativeHarnessActor(harness, config, stop)
    from calibration.offline.native_policies import NativeScriptedActor

    return NativeScriptedActor(harness, config, stop=stop)
