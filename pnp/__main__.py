"""`python -m pnp ...`: the command line, as the `pnp` console script runs it."""

from .cli import main

main()
