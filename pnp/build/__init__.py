"""The driver that runs the pipeline (load, plan, render, formats) for every command, the
build cache, and atomic output."""
