"""The pipeline every command runs (pipeline.py: load, check, plan, render, then a stage),
the build with its formats (driver.py), the build cache, and atomic output."""
