"""The commands around the build: watch, diff, preview, schema, scaffold (`pnp new`),
inventory, goldens and the games shipped in the wheel."""
