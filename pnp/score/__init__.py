"""Scoring a filled-in scoring sheet: the generic dispatch to a game plugin's scorer."""
