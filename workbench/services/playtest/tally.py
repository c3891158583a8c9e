"""Running totals of a batch of games: what the workers send back instead of per-game records.

The implementation is :mod:`workbench.domain.tally` (pure; the report of a list of records,
``stats.aggregate``, is the same code); this module keeps the services' import path.
"""

from __future__ import annotations

from workbench.domain.tally import REPORT_SCHEMA, CardKey, Tally, tally_of

__all__ = ["REPORT_SCHEMA", "CardKey", "Tally", "tally_of"]
