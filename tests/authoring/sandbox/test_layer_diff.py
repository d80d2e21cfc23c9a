import pytest

from authoring.sandbox.layer_diff import layer_changes, overlay_layers

EDITS = r"""
set -e
echo hi > /root/a
mkdir -p /workspace/x/y; echo 1 > /workspace/x/y/z
echo more >> /etc/bash.bashrc
rm /etc/issue.net
rm -rf /usr/share/doc/bash
rm -rf /etc/apt/apt.conf.d && mkdir /etc/apt/apt.conf.d && echo n > /etc/apt/apt.conf.d/new
chmod 600 /etc/debian_version
ln -s /etc/passwd /root/link
mv /etc/issue /etc/issue.moved
rm -f /bin/zcat
"""
RESTORED_TIME = r"""
set -e
stamp=$(stat -c %y /etc/bash.bashrc); size=$(stat -c %s /etc/bash.bashrc)
sed -i 's/a/b/' /etc/bash.bashrc
touch -d "$stamp" /etc/bash.bashrc
test "$(stat -c %s /etc/bash.bashrc)" = "$size"
"""


@pytest.fixture
def edited(docker_client, base_image):
    def run(script: str):
        container = docker_client.containers.run(base_image, ["sleep", "infinity"], detach=True)
        edited.containers.append(container)
        result = container.exec_run(["bash", "-c", script])
        assert result.exit_code == 0, result.output
        container.pause()
        return container

    edited.containers = []
    yield run
    for container in edited.containers:
        container.remove(force=True)


def engine_changes(container) -> set[tuple[str, str]]:
    kinds = {0: "changed", 1: "added", 2: "deleted"}
    return {(item["Path"], kinds[item["Kind"]]) for item in container.diff()}


def test_the_layer_walk_finds_what_the_engine_diff_finds(edited):
    container = edited(EDITS)
    layers = overlay_layers(container)
    if layers is None:
        pytest.skip("the engine's layers are not readable on this host (the engine's diff is used instead)")
    walked = set(layer_changes(*layers))
    engine = engine_changes(container)
    assert {c for c in engine if c[1] != "changed"} == {c for c in walked if c[1] != "changed"}
    assert {("/etc/apt/apt.conf.d/70debconf", "deleted"), ("/etc/apt/apt.conf.d/new", "added"),
            ("/etc/debian_version", "changed"), ("/usr/share/doc/bash", "deleted"), ("/usr/bin/zcat", "deleted"),
            ("/etc/issue", "deleted"), ("/etc/issue.moved", "added"), ("/root/link", "added")} <= walked
    extra = {path for path, _ in walked - engine}
    assert all(any(other.startswith(path + "/") for other, _ in walked) for path in extra), extra


def test_a_file_edited_back_to_its_old_size_and_time_is_still_changed(edited):
    container = edited(RESTORED_TIME)
    layers = overlay_layers(container)
    if layers is None:
        pytest.skip("the engine's layers are not readable on this host")
    assert ("/etc/bash.bashrc", "changed") in layer_changes(*layers)
