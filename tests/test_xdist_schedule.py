"""The test command's work units (tests/xdist_schedule.py): a renamed test must not drop out of its unit unnoticed."""

from tests.xdist_schedule import FIRST, GROUPS, ORACLE_ITEMS, ROOT, rank, unit_of


def test_every_prefix_names_a_test_file_or_test_that_exists():
    for prefix in [*(p for prefixes in GROUPS.values() for p in prefixes), *FIRST, ORACLE_ITEMS]:
        path, _, name = prefix.partition("::")
        assert (ROOT / path).exists(), prefix
        if name:
            assert f"def {name.split('[')[0]}" in (ROOT / path).read_text(), prefix


def test_units_and_dealing_order():
    oracle = f"{ORACLE_ITEMS}purge-qa-orders:risk/harmful]"
    pools = ("tests/authoring/sandbox/test_network_pool.py::"
             "test_a_run_waits_for_an_address_pool_while_every_pool_of_the_engine_is_taken")
    kept = "tests/authoring/sandbox/test_network_pool.py::test_a_kept_network_of_a_killed_process_is_a_leftover"
    harness = "tests/calibration/harnesses/test_opencode_pi.py::test_a_refusal_is_incomplete[opencode]"
    plain = "tests/authoring/test_leak_decoding.py::test_anything"
    assert [unit_of(n) for n in (oracle, pools, kept, harness, plain)] == [
        "oracle", "export", "engine-wide", "tests/calibration/harnesses/test_opencode_pi.py", plain]
    assert rank(oracle) < rank(pools) < rank(kept) < rank(harness) < rank(plain)
