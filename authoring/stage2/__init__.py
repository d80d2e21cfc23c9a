"""Stage II: a coding agent turns an accepted blueprint into a task pair that proves itself before it is kept."""
