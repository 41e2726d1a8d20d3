"""Stage 2 of the pipeline: items expanded into pieces and each piece's faces rendered as
SVG (the Jinja environment, text fitting, fonts, art assets, template locations), and the
HTML pages the tools show."""
