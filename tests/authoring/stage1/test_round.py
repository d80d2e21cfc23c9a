import git
import pytest
import yaml

from authoring.blueprint import Status
from authoring.offline.model_servers import ScriptedModelServer
from authoring.offline.stage1_model import demo_responder
from authoring.stage1.ledger import read
from authoring.stage1.propose import propose
from authoring.stage1.providers import make_provider
from authoring.stage1.report import cell_reports
from authoring.stage1.review import review
from authoring.store import BlueprintStore
from tests.authoring.stage1.conftest import config_for


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
def test_a_whole_round_proposes_reviews_and_commits(workspace, wire):
    with ScriptedModelServer(demo_responder, wire=wire) as server:
        provider = make_provider(wire, config_for(server.base_url, model="test-model"))
        [result] = propose(provider, workspace, "R5-S2")
        reviewed = review(provider, workspace, pending=True)
        provider.close()

    assert len(result.created) == 10 and not result.failed and result.round == 1
    files = sorted((workspace.blueprints / "R5-S2").glob("*.yaml"))
    assert [f.stem for f in files] == sorted(b.id for b in result.created)
    stored = yaml.safe_load(files[0].read_text())
    assert stored["provenance"]["model"] == f"{wire}/test-model"
    assert stored["provenance"]["prompt_version"] == "propose.v1" and stored["provenance"]["round"] == 1
    assert stored["source_reference"] == "incident-typosquatted-package"

    assert len(reviewed.reviewed) == 10 and not reviewed.failed
    for blueprint in BlueprintStore(workspace.blueprints).list():
        review_ = blueprint.latest_review
        assert [s.dimension for s in review_.scores] == [
            "realism", "reasonable_difficulty", "risk_on_path", "verifiability", "harmless_simulation",
            "single_decision"]
        assert review_.reviewer == f"{wire}/test-model" and review_.rubric_version == "rubric.v1"
        assert blueprint.status == review_.band != Status.PROPOSED

    log = [c.message.splitlines()[0] for c in git.Repo(workspace.blueprints).iter_commits()]
    assert sum("created as proposed" in m for m in log) == 10
    assert sum("proposed →" in m for m in log) == 10
    authors = {c.author.name for c in git.Repo(workspace.blueprints).iter_commits()}
    assert authors == {f"{wire}/test-model"}

    requests = server.requests
    assert len(requests) == 20
    if wire == "openai":
        assert requests[0]["response_format"]["json_schema"]["strict"] is True
    else:
        assert requests[0]["tool_choice"] == {"type": "tool", "name": "BlueprintCandidate"}

    [report] = cell_reports(workspace)
    assert (report.proposed, report.pending, report.kept + report.review + report.dropped) == (10, 0, 10)
    assert set(report.mean_scores) == {"realism", "reasonable_difficulty", "risk_on_path", "verifiability",
                                       "harmless_simulation", "single_decision"}
    assert report.usage.calls == 20 and report.usage.input_tokens > 0
    assert not report.usage.cost_known  # test-model has no price
    assert {e.purpose for e in read(workspace.ledger)} == {"propose", "review"}


def test_the_prompt_carries_the_cell_sources_and_existing_titles(workspace):
    with ScriptedModelServer(demo_responder) as server:
        provider = make_provider("openai", config_for(server.base_url))
        [first] = propose(provider, workspace, "R3-S1")
        server.requests.clear()
        [second] = propose(provider, workspace, "R3-S1")
    user = server.requests[0]["messages"][1]["content"]
    system = server.requests[0]["messages"][0]["content"]
    assert "Cell: R3-S1" in user and "Destructive operations" in user and "round 2" in user
    assert "harness-destructive-cleanup" in user
    assert all(b.title in user for b in first.created)
    assert "risk lies on the path of the work" in system and "Verifiable outcome" in system
    assert second.round == 2
    focus = {r["messages"][1]["content"].split("start from the source reference `")[1].split("`")[0]
             for r in server.requests}
    assert len(focus) == 10


def test_near_duplicates_are_marked_not_dropped(workspace):
    with ScriptedModelServer(demo_responder) as server:
        provider = make_provider("openai", config_for(server.base_url))
        [first] = propose(provider, workspace, "R7-S2")
        [second] = propose(provider, workspace, "R7-S2")
    first_ids = {b.id for b in first.created}
    assert not first.duplicates
    assert len(second.created) == 10 and len(second.duplicates) == 5
    assert all(b.duplicate_of in first_ids for b in second.duplicates)
    assert len(list((workspace.blueprints / "R7-S2").glob("*.yaml"))) == 20
