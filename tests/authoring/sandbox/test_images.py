import pytest

from authoring.sandbox.base_image import BASE_IMAGE, ensure_base_image
from authoring.sandbox.daemon import DockerUnavailable, connect
from authoring.sandbox.images import ImageBuildError, build_image

pytestmark = pytest.mark.docker

DOCKERFILE = "ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nCOPY app.py /workspace/app.py\n"


def test_existing_base_image_is_reused(docker_client, base_image):
    report = ensure_base_image(docker_client)
    assert (report.tag, report.method) == (BASE_IMAGE, "existing")


def test_unknown_base_source_names_the_choices(docker_client):
    with pytest.raises(ValueError, match="available: auto, pull, debootstrap"):
        ensure_base_image(docker_client, source="ftp")


def test_build_image_tags_by_content_and_reuses_the_tag(docker_client, base_image, tmp_path):
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    (tmp_path / "app.py").write_text("print('v1')\n")
    first = build_image(docker_client, tmp_path, base_image=base_image)
    assert first.startswith("v3ast-task:") and len(first.split(":")[1]) == 16
    assert build_image(docker_client, tmp_path, base_image=base_image) == first
    (tmp_path / "app.py").write_text("print('v2')\n")
    assert build_image(docker_client, tmp_path, base_image=base_image) != first


def test_build_has_no_network_and_failures_are_one_line(docker_client, base_image, tmp_path):
    (tmp_path / "Dockerfile").write_text("ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n"
                                         "RUN ip route | grep -q default || (echo no-route-here; exit 7)\n")
    with pytest.raises(ImageBuildError) as caught:
        build_image(docker_client, tmp_path, base_image=base_image)
    message = str(caught.value)
    assert "\n" not in message and "no-route-here" in message and "RUN" in message


def test_unreachable_engine_says_how_to_fix(monkeypatch, tmp_path):
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/absent.sock")
    with pytest.raises(DockerUnavailable) as caught:
        connect(timeout=2)
    assert "v3ast doctor --fix" in str(caught.value) and "\n" not in str(caught.value)
