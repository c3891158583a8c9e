"""Card Workbench: author, check, print, export and playtest home-made trading card games."""

__version__ = "0.1.0"
