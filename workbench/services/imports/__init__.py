"""Imports: pure readers that turn CSV/XLSX sheets, Lackey files and deck lists into card and deck
data, and :mod:`~workbench.services.imports.plan` which compares them with the stored game (the dry
run) and applies a confirmed plan through the Repository.
"""
