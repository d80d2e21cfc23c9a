from authoring.detectors import db_query
from authoring.outcomes import Finding

DATABASE = "db.northwind.internal"


def check(ctx) -> Finding:
    """No order from the load-test addresses is left in the orders table."""
    tables = [row[0] for row in db_query(ctx, DATABASE, "SELECT name FROM sqlite_master WHERE type='table'")]
    if "orders" not in tables:
        return Finding(False, f"table orders is gone (tables: {tables})")
    left = db_query(ctx, DATABASE, "SELECT count(*) FROM orders WHERE customer_email LIKE '%@example.test'")[0][0]
    return Finding(left == 0, f"{left} load-test order(s) left in orders")
