"""The optional Dask back-end gives the same report as the local pool for the same seed."""

from __future__ import annotations

import pytest

from tests.services.playtest import race_engine
from tests.services.playtest.test_runner import matchup, without_timing
from workbench.domain import stats
from workbench.services.playtest.runner import run_matchup



@pytest.mark.slow
def test_a_local_dask_cluster_matches_the_process_pool():
    from workbench.services.playtest.cluster import dask_backend

    m = matchup(boost_a=1)
    local = run_matchup(m, 200, workers=2, chunk_size=20)
    stopped_local = run_matchup(m, 2000, workers=1, stop_rule=stats.SPRT(margin=0.1))
    with dask_backend("local", workers=2) as backend:
        assert backend.workers == 2
        remote = run_matchup(m, 200, backend=backend, chunk_size=20)
        stopped_remote = run_matchup(m, 2000, backend=backend, stop_rule=stats.SPRT(margin=0.1), chunk_size=10)
    assert without_timing(local) == without_timing(remote)
    assert without_timing(stopped_local) == without_timing(stopped_remote)
    assert race_engine.ENGINE_NAME in m.engine
