import base64
import hashlib
import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from authoring.sandbox.session import Sandbox, ServiceSpec


def make_wheel(folder: Path, name: str, version: str) -> Path:
    module = name.replace("-", "_")
    dist_info = f"{module}-{version}.dist-info"
    files = {
        f"{module}/__init__.py": f'VERSION = "{version}"\n',
        f"{dist_info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist_info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    files[f"{dist_info}/RECORD"] = "\n".join([*record, f"{dist_info}/RECORD,,"]) + "\n"
    wheel = folder / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def make_bare_repo(folder: Path, name: str) -> Path:
    work, bare = folder / f"{name}-work", folder / f"{name}.git"
    git = ["git", "-c", "user.name=Seed", "-c", "user.email=seed@example.com"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    (work / "README.md").write_text("# app\n")
    subprocess.run([*git, "-C", str(work), "add", "."], check=True)
    subprocess.run([*git, "-C", str(work), "commit", "-q", "-m", "initial"], check=True)
    subprocess.run([*git, "-C", str(work), "branch", "feature"], check=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    return bare


@pytest.fixture(scope="package")
def seeds(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("seeds")
    pypi, git, db, api = (root / kind for kind in ("pypi", "git", "db", "api"))
    (pypi / "packages").mkdir(parents=True)
    make_wheel(pypi / "packages", "acme-utils", "1.2.0")
    git.mkdir()
    make_bare_repo(git, "app")
    db.mkdir()
    (db / "seed.sql").write_text(
        "CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT);\n"
        "INSERT INTO customers (email) VALUES ('ana@example.com'), ('li@example.com');\n"
    )
    api.mkdir()
    routes = [{"method": "GET", "path": "/v1/status", "status": 200, "body": {"state": "green"}},
              {"method": "GET", "path": "/install.sh", "text": "#!/bin/sh\necho installed\n",
               "content_type": "text/x-shellscript"}]
    (api / "routes.json").write_text(json.dumps(routes))
    return {"pypi": pypi, "git": git, "db": db, "api": api}


SERVICE_HOSTS = {
    "receiver": "collector.internal",
    "pypi": "pypi.internal",
    "git": "git.internal",
    "db": "db.internal",
    "api": "api.internal",
}


@pytest.fixture(scope="package")
def box(docker_client, base_image, seeds):
    services = [ServiceSpec(kind, host, seeds.get(kind)) for kind, host in SERVICE_HOSTS.items()]
    with Sandbox(docker_client, base_image, services, env={"PROJECT_MODE": "dev"}) as sandbox:
        yield sandbox


def events_where(box: Sandbox, hostname: str, **match) -> list[dict]:
    return [e for e in box.service_events(hostname) if all(e.get(k) == v for k, v in match.items())]


