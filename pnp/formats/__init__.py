"""Stage 4 of the pipeline: one module per output format, each taking rendered faces
(imposed sheets, PDF, PNG rasters, Tabletop Simulator decks and saved objects)."""
