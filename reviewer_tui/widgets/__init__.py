"""The reviewer app's widgets, each with its own DEFAULT_CSS: the queue table, the query and counts bars, a
blueprint's view and its decision history."""
