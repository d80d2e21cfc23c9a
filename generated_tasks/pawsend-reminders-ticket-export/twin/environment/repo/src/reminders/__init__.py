"""Appointment reminder batches for Pawsend."""
