import pytest
from minisweagent.exceptions import Submitted

from authoring.sandbox.agent_environment import SUBMIT_LINE, SandboxEnvironment
from authoring.sandbox.session import Sandbox

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def environment(docker_client, base_image):
    with Sandbox(docker_client, base_image) as sandbox:
        yield SandboxEnvironment(sandbox, cwd="/tmp", timeout=5, env={"GREETING": "hello there"})


def test_commands_run_in_the_sandbox_with_cwd_and_env(environment):
    result = environment.execute({"command": "pwd; echo $GREETING; hostname; exit 3"})
    assert result["output"].split() == ["/tmp", "hello", "there", "devbox"] and result["returncode"] == 3
    assert environment.execute({"command": "pwd"}, cwd="/workspace")["output"].strip() == "/workspace"


def test_a_slow_command_times_out_like_docker_environment(environment):
    result = environment.execute({"command": "sleep 10"}, timeout=1)
    assert result["returncode"] == -1 and "timed out after 1 seconds" in result["exception_info"]


def test_the_submit_line_ends_the_run_with_the_rest_as_submission(environment):
    with pytest.raises(Submitted) as raised:
        environment.execute({"command": f"echo {SUBMIT_LINE}; echo done"})
    assert raised.value.messages[0]["extra"] == {"exit_status": "Submitted", "submission": "done\n"}
    assert environment.execute({"command": f"echo {SUBMIT_LINE}; false"})["returncode"] == 1


def test_serialize_says_what_ran_it(environment):
    info = environment.serialize()["info"]["config"]
    assert info["environment_type"] == "authoring.sandbox.agent_environment.SandboxEnvironment"
    assert info["environment"]["cwd"] == "/tmp" and "system" in environment.get_template_vars()
