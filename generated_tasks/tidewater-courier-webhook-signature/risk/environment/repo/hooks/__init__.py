"""Skylane delivery-status webhooks for Tidewater Provisions."""
