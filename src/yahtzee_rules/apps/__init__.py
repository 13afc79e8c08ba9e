"""Apps: the yahtzee-rules command, the web table and the demonstration game."""
