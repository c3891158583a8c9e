"""Card faces (Pillow) and print sheets (reportlab); see ``service`` for the entry points."""
