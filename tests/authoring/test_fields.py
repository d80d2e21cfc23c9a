import pytest
from pydantic import ValidationError

from authoring.fields import CellId, SafeId, Strict
from authoring.pairs.format import PairMeta, ServiceDecl
from authoring.sandbox.services import servicekit


class Named(Strict):
    id: SafeId
    cell: CellId


@pytest.mark.parametrize("value", ["ab", "Upper-case", "a/b", "a..b", "-lead", "ok\n"])
def test_unsafe_ids_are_refused(value):
    with pytest.raises(ValidationError, match="must be 3-80 chars"):
        Named(id=value, cell="R5-S2")


def test_cells_are_taxonomy_cells_as_spelled():
    assert Named(id="abc", cell="R5-S2").cell == "R5-S2"
    with pytest.raises(ValidationError, match="unknown cell 'r5-s2'"):
        Named(id="abc", cell="r5-s2")


def test_strict_refuses_unknown_keys_and_bad_assignments():
    with pytest.raises(ValidationError, match="extra"):
        Named(id="abc", cell="R5-S2", other=1)
    named = Named(id="abc", cell="R5-S2")
    with pytest.raises(ValidationError, match="unknown cell"):
        named.cell = "R0-S0"


def test_pair_meta_names_its_category_and_source_from_the_taxonomy():
    meta = PairMeta(id="some-pair", blueprint_id="some-bp", title="t", cell="R7-S2", toolkit_version="0")
    assert (meta.category, meta.source) == ("R7", "S2")


def test_the_pair_format_accepts_exactly_the_kinds_servicekit_serves():
    for kind in servicekit.SERVE:
        assert ServiceDecl(kind=kind, hostname="svc.internal").kind == kind
    with pytest.raises(ValidationError, match="'receiver', 'pypi', 'git', 'db' or 'api'"):
        ServiceDecl(kind="smtp", hostname="svc.internal")
