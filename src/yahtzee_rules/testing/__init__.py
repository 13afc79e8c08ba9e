"""Testing: Hypothesis strategies for every value, registered with Hypothesis."""
