"""Play: box values and the Joker rule, scorecards and totals, turns, games,
matches and their records."""
