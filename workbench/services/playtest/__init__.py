"""Playtests: batch runner (process pool or Dask), gauntlets, goldfish, pasted lists, variants.

Modules: ``runner`` (:class:`runner.Matchup`, :func:`runner.run_matchup`), ``service`` (matchups
from saved or pasted decks, gauntlets, variant comparisons), ``goldfish``, ``decklist``, ``jobs``
(background runs for the web) and ``cluster`` (the optional Dask back-end). Nothing is imported
here, so a pool worker only loads the runner and the engine it needs. See docs/playtests.md.
"""
