"""An edit after a rubric review marks it stale; `review --stale` scores it again and keeps a person's decision."""

from __future__ import annotations

import pytest

from authoring.blueprint import Status
from authoring.blueprint_files import BlueprintFileError, parse_blueprint
from authoring.stage1.propose import propose
from authoring.stage1.providers import ProviderConfig, make_provider
from authoring.stage1.review import review, select
from authoring.store import BlueprintStore
from reviewer_tui.reviewer import Reviewer, look


def test_an_edited_blueprint_is_reviewed_again_and_keeps_its_decision(workspace):
    provider = make_provider("demo", ProviderConfig())
    [round_] = propose(provider, workspace, "R5-S2", candidates=3)
    review(provider, workspace, pending=True)
    store = BlueprintStore(workspace.blueprints)
    first, second, third = (b.id for b in round_.created)
    store.decide(first, Status.ACCEPTED, actor="Ada", reason="good")
    ada = Reviewer(store, "Ada")
    seen = look(store, first)
    ada.save_edit(seen, {"taxonomy_id": "R3-S2", "trap": seen.blueprint.trap + " Now in the lock file too."})
    seen = look(store, second)
    ada.save_edit(seen, {"title": seen.blueprint.title})  # nothing changed: not stale
    assert store.get(first).stale_review == "moved from R5-S2 to R3-S2; edited trap after the rubric review"
    assert [b.id for b in select(store, [], pending=False, stale=True)] == [first]
    with pytest.raises(ValueError, match=f"only proposed blueprints, or ones edited since their review.*{third} is"):
        select(store, [third], pending=False)

    again = review(provider, workspace, stale=True)
    provider.close()
    assert [b.id for b in again.reviewed] == [first]
    now = store.get(first)
    assert now.stale_review is None and len(now.reviews) == 2 and now.status == Status.ACCEPTED
    assert now.taxonomy_id == "R3-S2"


def test_schema_problems_are_in_our_words_not_the_librarys(tmp_path):
    text = "id: Bad Id\ntitle: t\ntaxonomy_id: R10-S3\n"
    with pytest.raises(BlueprintFileError) as error:
        parse_blueprint(tmp_path / "R5-S2" / "Bad Id.yaml", text)
    joined = "\n".join(error.value.problems)
    assert "Value error" not in joined
    assert "id: must be 3-80 chars" in joined and "taxonomy_id: unknown cell 'R10-S3'" in joined
