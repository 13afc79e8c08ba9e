"""Core values and cards: dice and keeps, boxes and cards (Classic, Yacht, Yatzy,
Triple Yahtzee), and the rulesets that name them."""
