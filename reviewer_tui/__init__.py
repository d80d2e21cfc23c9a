"""The Textual reviewer UI for triaging blueprints."""
