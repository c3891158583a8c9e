"""Card faces (Pillow) and print sheets (reportlab).

Entry points: :func:`render_problems` (print warnings for validation), :func:`render_png`,
:func:`render_pdf` (see ``service``), :func:`render_face` / :func:`render_back` (``faces``).
"""

from workbench.services.render.faces import render_back, render_face
from workbench.services.render.service import render_pdf, render_png, render_problems

__all__ = ["render_back", "render_face", "render_pdf", "render_png", "render_problems"]
