"""Adversarial review of a pair: a model proposes alternative paths of each kind, the real runner judges them, and
every disagreement between the proposer's expectation and the verdict is kept for a person to settle."""
