"""Stage 3 of the pipeline: each planned piece's faces rendered as SVG (the Jinja
environment, text fitting, fonts, art assets, template locations), and the HTML pages the
tools show."""
