"""Exports: pure writers that turn a game's cards and decks into files for other programs.

Each format module returns a :class:`~workbench.services.exports.common.Bundle` (relative path ->
bytes, plus notes for the designer); only :mod:`workbench.storage.export_files` writes them.
:mod:`workbench.services.exports.run` ties a format name to its writer for the CLI and the web.
"""
