"""Game plugins: only what cannot be data (schemas, scoring, glyph helpers)."""
