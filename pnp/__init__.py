"""pnp: print-and-play components and end-of-game scoring from board-game content in YAML."""

__version__ = "0.1.0"
