"""Integrations: Gymnasium, PettingZoo and OpenSpiel environments, each behind
its own extra."""
