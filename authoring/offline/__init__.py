"""Offline stand-ins for models — nothing here is a real model.

HTTP servers on 127.0.0.1 that speak the providers' wire formats (OpenAI chat and responses, Anthropic messages,
streaming too) with scripted answers (`model_servers`), and what the toolkit builds on them: Stage I's demo model
(`stage1_model`) and Stage II's scripted demo agent (`stage2_agent`). They run the pipeline when no model endpoint
is configured (the main job says so in its output) and drive the real SDKs and harnesses end to end in tests.
Calibration's scripted policies are in `calibration.offline`.
"""
