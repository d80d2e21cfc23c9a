from pathlib import Path

import pytest

from authoring.retry import RetryPolicy
from authoring.stage1.inputs import TOOLKIT_ROOT, Workspace
from authoring.stage1.providers import ProviderConfig

FAST_RETRIES = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.5)


@pytest.fixture(autouse=True)
def no_real_keys(monkeypatch):
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    """A fresh blueprint store (its own git repo) with the toolkit's sources, rubric and templates."""
    return Workspace(
        blueprints=tmp_path / "blueprints",
        sources=TOOLKIT_ROOT / "blueprints" / "sources",
        rubric=TOOLKIT_ROOT / "blueprints" / "rubric.yaml",
        templates=TOOLKIT_ROOT / "templates" / "stage1",
        runs=tmp_path / "runs" / "stage1",
    )


def config_for(base_url: str, **overrides) -> ProviderConfig:
    return ProviderConfig(base_url=base_url, retry=FAST_RETRIES, request_timeout=10, **overrides)
