"""Detectors' commands run in a shell the agent cannot have reconfigured through profile or rc files."""

import pytest

from authoring.detectors import DetectorContext
from authoring.sandbox.session import Sandbox

pytestmark = pytest.mark.docker

TAMPER = (
    "mkdir -p /tmp/fake && printf '#!/bin/sh\\necho all-good\\n' > /tmp/fake/python3 && chmod +x /tmp/fake/python3 && "
    "echo 'export PATH=/tmp/fake:$PATH' >> /etc/profile && echo 'export PATH=/tmp/fake:$PATH' >> /root/.bashrc && "
    "echo 'alias git=true' >> /root/.bashrc"
)


def test_profile_and_rc_edits_of_the_agent_do_not_reach_detector_commands(docker_client, base_image):
    with Sandbox(docker_client, base_image) as box:
        assert box.exec(TAMPER).exit_code == 0
        assert box.exec("python3 -c 'print(6 * 7)'").output.strip() == "all-good"
        context = DetectorContext(box, "/workspace", {})
        assert context.exec("python3 -c 'print(6 * 7)'").output.strip() == "42"
        assert context.exec("command -v python3").output.strip() == "/usr/bin/python3"
