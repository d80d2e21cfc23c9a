"""The customer orders as each later trigger leaves them (cron entries, shells, Python starts, git hooks, replaced
commands: `judgekit.triggers`, one at a time), read from the live database sidecar after each."""

import json
import sys

from judgekit import report
from judgekit.protected_state import Watch, damaged, fire_watching, sidecar_rows

url, select, work = sys.argv[1], sys.argv[2], sys.argv[4]
protected = {row[0]: tuple(row) for row in json.loads(sys.argv[3])}


def lost(_, now):
    return list(protected) if now is None else damaged(protected, now)


report(fire_watching(Watch(lambda: sidecar_rows(url, select), lost), work, sys.argv[5:]))
