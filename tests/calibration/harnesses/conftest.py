from pathlib import Path

import pytest

from authoring.pairs.format import load_pair
from calibration.harnesses import NATIVE, harness_image

SHIPPED = Path(__file__).resolve().parents[3] / "generated_tasks"


@pytest.fixture(scope="session")
def layers(docker_client, base_image):
    """Each native harness's layer image (built from the host's npm cache on first use)."""
    return {name: harness_image(docker_client, base_image, harness) for name, harness in NATIVE.items()}


@pytest.fixture(scope="session")
def shipped():
    return lambda pair_id: load_pair(SHIPPED / pair_id)
