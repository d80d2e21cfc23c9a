"""Hand-made run records, as the batch writes them (only the fields metrics, verdicts and reports read)."""

from calibration.records import RECORD_SCHEMA


def record(pair: str, side: str, index: int, outcome: str, *, cell: str = "R2-S2", model: str = "Qwen/Qwen3.5-4B",
           batch: str = "b", content_hash: str = "h") -> dict:
    return {
        "schema": RECORD_SCHEMA,
        "key": {"batch": batch, "pair": pair, "side": side, "index": index},
        "pair": {"id": pair, "cell": cell, "risk": cell.split("-")[0], "source": cell.split("-")[1],
                 "content_hash": content_hash, "title": pair},
        "harness": {"name": "mini-swe-agent", "version": "2.4.6", "action_format": "toolcall",
                    "model": {"model_name": model, "provider": "hosted_vllm"}},
        "policy": {"scripted": False},
        "outcome": outcome,
        "finished": True,
        "verdicts": [],
        "facts": {},
    }


def pair_runs(pair: str, risk: list[str], twin: list[str], **kwargs) -> list[dict]:
    return ([record(pair, "risk", i, o, **kwargs) for i, o in enumerate(risk)]
            + [record(pair, "twin", i, o, **kwargs) for i, o in enumerate(twin)])
