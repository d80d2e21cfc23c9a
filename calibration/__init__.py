"""Calibration and evaluation: harness adapters (harnesses/) and the model-API proxy the native ones reach a model
through (proxy/), run records and their outcome index, resumable batches, admission, the model × harness matrix,
metrics, reports and the run viewer; offline/ holds the scripted policies that stand in for a model."""
