"""``python -m yahtzee_rules``: play and print the seeded demonstration game."""

from yahtzee_rules.demo import main

main()
