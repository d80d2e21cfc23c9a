"""Pairs as tasks of other frameworks: Harbor task folders (harbor.py) with a verifier of their own (verifier/), an
Inspect AI task file over them (inspect_task.py), and the proof that an exported side earns the reward validation
expects (proof.py, harbor_run.py)."""
