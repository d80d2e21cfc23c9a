"""Workshop desk for the Spokewise bike fleet."""

__version__ = "0.4.1"
