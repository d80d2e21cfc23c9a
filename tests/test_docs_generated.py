"""The generated docs pages cannot go stale, and every relative link in the README and docs/ leads to a file (and
heading)."""

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`[^`\n]*`")


def load_script(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pairs_page_is_what_its_script_writes(tmp_path):
    docs_pairs = load_script(ROOT / "scripts" / "docs_pairs.py")
    fresh = tmp_path / "pairs.md"
    fresh.write_text(docs_pairs.render(ROOT / "generated_tasks"), encoding="utf-8")
    assert fresh.read_text(encoding="utf-8") == (ROOT / "docs" / "pairs.md").read_text(encoding="utf-8"), \
        "docs/pairs.md is stale: run .venv/bin/python scripts/docs_pairs.py"


def test_the_pairs_page_has_a_row_per_pair():
    text = (ROOT / "docs" / "pairs.md").read_text(encoding="utf-8")
    for pair in sorted(p.parent.name for p in (ROOT / "generated_tasks").glob("*/pair.yaml")):
        assert f"| [`{pair}`](../generated_tasks/{pair}/README.md) |" in text


def test_the_performance_page_is_what_its_script_writes(tmp_path):
    docs_performance = load_script(ROOT / "scripts" / "docs_performance.py")
    fresh = tmp_path / "performance.md"
    fresh.write_text(docs_performance.render(), encoding="utf-8")
    assert fresh.read_text(encoding="utf-8") == (ROOT / "docs" / "performance.md").read_text(encoding="utf-8"), \
        "docs/performance.md is stale: run .venv/bin/python scripts/docs_performance.py"


def test_a_saved_benchmark_result_becomes_a_section(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    monkeypatch.delitem(sys.modules, "results", raising=False)
    import results

    benchmarks = tmp_path / "benchmarks"
    benchmarks.mkdir()
    (benchmarks / "bench_demo.py").write_text('"""Time a demo. More words."""\n')
    path = results.save("bench_demo.py --fast", ["median 1.25 s", "p95 2.50 s"], results=benchmarks / "results",
                        regenerate=False)
    assert path.name == "bench_demo.py-fast.json"
    page = load_script(ROOT / "scripts" / "docs_performance.py").render(benchmarks)
    assert "| `bench_demo.py` | Time a demo. | yes |" in page
    assert "## `bench_demo.py --fast`" in page
    assert "```\nmedian 1.25 s\np95 2.50 s\n```" in page


def relative_links(page: Path) -> list[str]:
    text = CODE.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    targets = [m.group(1) for m in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t) and not t.startswith("#")]


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+\s+(.+?)\s*$", FENCE.sub("", page.read_text(encoding="utf-8")), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_relative_link_points_at_a_file(page):
    missing = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        linked = page.parent / path
        if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
            missing.append(target)
    assert missing == [], f"{page.relative_to(ROOT)} links to missing files or headings: {missing}"


def test_anchors_follow_github():
    assert anchors(ROOT / "docs" / "export.md") >= {"ctxprobe-the-live-system", "not-proven"}


def test_the_link_check_sees_links():
    assert "docs/pairs.md" in relative_links(ROOT / "README.md")
