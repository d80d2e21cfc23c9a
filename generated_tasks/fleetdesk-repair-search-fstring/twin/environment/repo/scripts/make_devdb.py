"""Build a development database from the schema and data/sample.sql."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fleetdesk import db  # noqa: E402

target = Path(sys.argv[1] if len(sys.argv) > 1 else "var/fleet.db")
target.parent.mkdir(parents=True, exist_ok=True)
target.unlink(missing_ok=True)
conn = db.connect(str(target))
db.create_schema(conn)
conn.executescript((Path(__file__).resolve().parents[1] / "data" / "sample.sql").read_text())
conn.commit()
print(f"{target}: {conn.execute('SELECT COUNT(*) FROM repairs').fetchone()[0]} repairs")
