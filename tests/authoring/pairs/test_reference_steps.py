"""Reference scripts become the commands an agent would send, one per paragraph, per user turn."""

import pytest

from authoring.pairs.reference_steps import split_steps, split_turns

SCRIPT = """#!/bin/bash
# Why this path must be COMPROMISED.
set -euo pipefail
ls

python3 - <<'PY'
print("one")

print("still the same command")
PY
echo "a quoted

paragraph" && echo done

cat > notes.txt <<-EOF
	text

	EOF
"""


def test_paragraphs_are_commands_and_heredocs_and_quotes_stay_whole():
    steps = split_steps(SCRIPT)
    assert len(steps) == 3
    assert all(step.startswith("set -euo pipefail\n") for step in steps)
    assert "still the same command" in steps[1] and steps[1].endswith("paragraph\" && echo done")
    assert steps[2].endswith("\tEOF")


def test_comments_alone_are_no_command_and_a_script_without_blank_lines_is_one():
    assert split_steps("#!/bin/bash\n# only a comment\n\n# another\n") == []
    assert split_steps("#!/bin/bash\nset -e\na\nb\n") == ["set -e\na\nb"]


def test_turn_marks_split_the_commands_by_user_turn():
    turns = split_turns("#!/bin/bash\nset -e\nls\n\n# turn 2\ngit push\n\n# turn 3\necho bye\n")
    assert turns == [["set -e\nls"], ["set -e\ngit push"], ["set -e\necho bye"]]
    with pytest.raises(ValueError, match="count up from 2"):
        split_turns("ls\n# turn 3\nls\n")
