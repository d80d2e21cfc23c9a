"""Offline stand-ins for calibration — nothing here is a real model.

Scripted policies that replay a side's reference path as a model's tool calls, served in the harness's wire
format by `authoring.offline.model_servers`: for Mini-SWE-agent (`policies`) and the native harnesses
(`native_policies`). The main job calibrates with them when no model endpoint is configured, and tests use them.
"""
