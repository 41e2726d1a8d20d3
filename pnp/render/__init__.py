"""Stage 3 of the pipeline: a piece's faces as SVG (the Jinja environment, text fitting,
fonts, art assets, file locations) and the HTML pages the tools show."""
