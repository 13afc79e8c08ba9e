"""Formats: text notation, JSON, share codes and text tables over the values of play."""
