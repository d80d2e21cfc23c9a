"""Text blocks for parcel labels."""
