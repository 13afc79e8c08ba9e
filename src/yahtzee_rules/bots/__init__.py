"""Bots and the solver: exact dice probabilities, strategies that play, policies,
tournaments and the optimal-play tables (NumPy)."""
