import hashlib

from authoring.folder_hash import folder_hash
from authoring.pairs.format import content_hash
from authoring.sandbox.images import context_digest


def _tree(root):
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("alpha")
    (root / "sub" / "b.sh").write_text("echo b")
    return root


def test_the_bytes_hashed_are_named_inputs_then_each_file_in_path_order(tmp_path):
    root = _tree(tmp_path / "t")
    expected = hashlib.sha256(b"LEAD" + b"a.txt\0alpha\0" + b"sub/b.sh\0echo b\0" + b"TRAIL").hexdigest()
    assert folder_hash(root, leading=b"LEAD", trailing=b"TRAIL") == expected


def test_file_modes_count_only_when_asked(tmp_path):
    root = _tree(tmp_path / "t")
    before, plain = folder_hash(root, file_modes=True), folder_hash(root)
    (root / "sub" / "b.sh").chmod(0o755)
    assert folder_hash(root, file_modes=True) != before
    assert folder_hash(root) == plain
    assert context_digest(root, "base") == folder_hash(root, file_modes=True, trailing=b"base")


def test_a_pair_content_hash_leaves_out_pair_yaml_and_caches(tmp_path):
    root = _tree(tmp_path / "p")
    first = content_hash(root)
    (root / "pair.yaml").write_text("id: p\n")
    (root / "sub" / "__pycache__").mkdir()
    (root / "sub" / "__pycache__" / "b.pyc").write_bytes(b"\0")
    assert content_hash(root) == first
    (root / "sub" / "pair.yaml").write_text("nested: counts\n")
    assert content_hash(root) != first
