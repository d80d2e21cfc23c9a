

def test_the_mirror_comes_from_the_hosts_apt_sources(tmp_path, monkeypatch):
    from authoring.sandbox.base_image import DEFAULT_MIRROR, configured_mirror

    monkeypatch.delenv("V3AST_DEBIAN_MIRROR", raising=False)
    assert configured_mirror(tmp_path) == DEFAULT_MIRROR
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "nodesource.sources").write_text(
        "Types: deb\nURIs: https://deb.nodesource.com/node_20.x\nSuites: nodistro\nComponents: main\n")
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\n# a comment: with a colon\nURIs: http://mirror.example.internal/debian\n"
        "Suites: bookworm bookworm-updates\nComponents: main\n\n"
        "Types: deb\nURIs: http://mirror.example.internal/debian-security\nSuites: bookworm-security\n")
    assert configured_mirror(tmp_path) == "http://mirror.example.internal/debian"
    (tmp_path / "sources.list.d" / "debian.sources").unlink()
    (tmp_path / "sources.list").write_text("deb http://old.example.internal/debian bookworm main\n")
    assert configured_mirror(tmp_path) == "http://old.example.internal/debian"
    monkeypatch.setenv("V3AST_DEBIAN_MIRROR", "http://override.internal/debian")
    assert configured_mirror(tmp_path) == "http://override.internal/debian"
