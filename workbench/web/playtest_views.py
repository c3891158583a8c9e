"""Playtest pages: start a run, watch its progress, read the report, replay one game, resume.

Runs play in a background thread of the server process that started them (a process pool
inside), so closing the page does not stop them. Their progress is kept in the data folder
(:mod:`workbench.services.playtest.jobs`), so any server process answers the progress poll; a run
cut short by a restart shows as interrupted and can be resumed. Finished runs are files under the
data folder (:mod:`workbench.storage.playtest_runs`) and can be compared.
"""

from __future__ import annotations

import math
from typing import Any

from filelock import Timeout
from flask import Blueprint, abort, current_app, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from jinja2.exceptions import UndefinedError
from werkzeug.exceptions import TooManyRequests
from werkzeug.wrappers import Response

from workbench.domain import stats
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import AGENT_LABELS, MAX_SEARCH_BUDGET
from workbench.domain.errors import DataError, NotFound, WorkbenchError
from workbench.domain.tally import upgrade_report
from workbench.services.playtest import service
from workbench.services.playtest.jobs import JobRegistry, RunsBusy
from workbench.services.playtest.runner import play_one
from workbench.storage.playtest_runs import RunStore, changes_between, check_run_id
from workbench.web import get_repo
from workbench.web.auth import can_edit, current_user, current_user_name
from workbench.web.goldfish_slots import GoldfishBusy, goldfish_slot
from workbench.web.replay_slots import RETRY_AFTER_SECONDS, ReplaysBusy, replay_is_cheap, replay_slot

bp = Blueprint("playtest", __name__)

MAX_GAMES = 100_000
MAX_PASTE = 20_000
MAX_GOLDFISH_GAMES = 300  # a goldfish run plays in the request: more is refused (400)
MAX_SEED = 2**63


def jobs() -> JobRegistry:
    """The app's registry of background runs (created on first use)."""
    registry = current_app.extensions.get("workbench.playtest_jobs")
    if registry is None:
        # PLAYTEST_STALE_S: seconds without a heartbeat after which another host's run counts as interrupted
        # PLAYTEST_MAX_RUNS, PLAYTEST_MAX_RUNS_PER_USER, PLAYTEST_MAX_WORKERS: see docs/playtests.md
        config = current_app.config
        registry = JobRegistry(RunStore(get_repo()), stale_s=float(config.get("PLAYTEST_STALE_S", 30.0)),
                               max_runs=config.get("PLAYTEST_MAX_RUNS"),
                               max_runs_per_user=config.get("PLAYTEST_MAX_RUNS_PER_USER"),
                               max_workers=config.get("PLAYTEST_MAX_WORKERS"))
        current_app.extensions["workbench.playtest_jobs"] = registry
    return registry  # type: ignore[no-any-return]


@bp.context_processor
def _form_limits() -> dict[str, Any]:
    """The search budget's cap, shown by the playtest, gauntlet and balance forms."""
    return {"max_budget": MAX_SEARCH_BUDGET}


def _game_or_404(game: str) -> Any:
    try:
        return get_repo().game(game)
    except WorkbenchError:
        abort(404, description=f"no game {game!r}")


def _agents(definition: Any) -> list[str]:
    try:
        return sorted(load_engine(definition.engine).agents) if definition.engine else []
    except WorkbenchError:
        return []


def _max_players(definition: Any) -> int:
    """The most seats the game's engine takes (fusion 4, RULES.md §3.9; others 2)."""
    try:
        return load_engine(definition.engine).max_players if definition.engine else 2
    except WorkbenchError:
        return 2


# Whose budget a refusal names, as the form labels its two budget fields (error_forms has each).
_BUDGET_OWNERS = {
    "matchup": {"a": "deck A's", "b": "deck B's"},
    "gauntlet": {"a": "the deck's", "b": "the opponents'"},
    "balance": {"a": "the deck's", "b": "the opponent's"},
}


def _agent_spec(data: Any, side: str, form: str = "matchup") -> str:
    """The form's player for ``side``: an agent name, ``search:N`` when the strong player gets
    a budget (``budget_<side>``, iterations per decision; empty: the game's default). A refused
    budget names its field as ``form`` labels it (deck A's or B's, the deck's or the opponents')."""
    name = str(data.get(f"agent_{side}") or "heuristic")
    budget = str(data.get(f"budget_{side}") or "").strip()
    if name == "search" and budget:
        if not budget.isdigit() or not 1 <= int(budget) <= MAX_SEARCH_BUDGET:
            whose = _BUDGET_OWNERS[form][side]
            raise WorkbenchError(f"{whose} search budget must be 1–{MAX_SEARCH_BUDGET:,} iterations, not {budget!r}")
        return f"search:{int(budget)}"
    return name


def _prefill(deck_a: str, deck_ids: list[str]) -> dict[str, str]:
    """The form's decks when a deck page links here (``?deck_a=ID``): that deck against another."""
    if deck_a not in deck_ids:
        return {}
    return {"deck_a": deck_a, "deck_b": next((d for d in deck_ids if d != deck_a), deck_a)}


@bp.get("/games/<game>/playtest")
def index(game: str) -> str:
    """The playtest form: decks (saved or pasted), agents, games, seed, options; earlier runs."""
    definition = _game_or_404(game)
    repo = get_repo()
    decks, _ = repo.list_decks_tolerant(game)
    store = RunStore(repo)
    running = jobs().unfinished(game)
    return render_template(
        "playtest/index.html",
        game=definition, game_id=game,
        decks=[(d.id, str(d.data.get("name", d.id))) for d in decks],
        agents=_agents(definition), agent_labels=AGENT_LABELS,
        options=list(definition.options.values()),
        runs=store.list(game)[:30],
        running=running,
        cpus=jobs().max_workers, max_players=_max_players(definition),
        error=None, form=_prefill(request.args.get("deck_a", ""), [d.id for d in decks]),
    )


def _form_request(definition: Any) -> dict[str, Any]:
    """Read the start request (form or JSON) into checked parameters. Raises WorkbenchError."""
    data: Any = request.get_json(silent=True) if request.is_json else request.form
    if not hasattr(data, "get"):
        raise WorkbenchError("send a form or a JSON object")

    def deck(side: str) -> Any:
        text = str(data.get(f"deck_{side}_text") or "").strip()
        if text:
            if len(text) > MAX_PASTE:
                raise WorkbenchError(f"the pasted list for deck {side.upper()} is longer than {MAX_PASTE:,} characters")
            # the run keeps this name: in the reader's language, as the deck names they chose are
            return {"text": text, "name": gettext("Pasted list %(side)s", side=side.upper())}
        deck_id = str(data.get(f"deck_{side}") or "").strip()
        if not deck_id:
            raise WorkbenchError(f"choose deck {side.upper()} or paste its list")
        return deck_id

    def number(key: str, default: int, low: int, high: int) -> int:
        raw = data.get(key)
        if raw in (None, ""):
            return default
        try:
            value = int(raw)
        except (TypeError, ValueError, OverflowError):  # OverflowError: 1e400 reads as infinity
            raise WorkbenchError(f"{key} must be a whole number, not {str(raw)[:40]!r}") from None
        if not low <= value <= high:
            raise WorkbenchError(f"{key} must be between {low:,} and {high:,}, not {value:,}")
        return value

    overrides = {}
    raw_options = data.get("options") if request.is_json else None
    if isinstance(raw_options, dict):
        overrides = {str(k): v for k, v in raw_options.items() if v not in (None, "")}
    else:
        for name in definition.options:
            value = data.get(f"opt_{name}")
            if value not in (None, ""):
                overrides[name] = value
    for name, value in overrides.items():
        definition.coerce_option(name, value)  # clear errors before anything starts
    # "Compare with a variant": a second set of option changes, played on the same seeds.
    variant: dict[str, Any] | None = None
    if request.is_json:
        raw_variant = data.get("variant")
        if raw_variant is not None:
            if not isinstance(raw_variant, dict):
                raise WorkbenchError("variant must be an object of rule options")
            variant = {str(k): v for k, v in raw_variant.items() if v not in (None, "")}
    else:
        filled = {name: data.get(f"var_opt_{name}") for name in definition.options
                  if data.get(f"var_opt_{name}") not in (None, "")}
        if data.get("compare"):
            variant = filled
        elif filled:  # never silently ignore what the designer typed
            raise WorkbenchError(f"the variant's {', '.join(sorted(filled))} {'is' if len(filled) == 1 else 'are'} "
                                 "filled but 'Compare with this variant' is not ticked: tick it to compare, "
                                 "or clear those fields")
    if variant is not None:
        if not variant:
            raise WorkbenchError("give the variant at least one rule option to change")
        for name, value in variant.items():
            definition.coerce_option(name, value)
    stop_rule = str(data.get("early_stop") or "none")
    margin_raw = data.get("margin")
    if margin_raw in (None, ""):
        margin_raw = 3
    try:
        points = float(margin_raw)
    except (TypeError, ValueError):
        raise WorkbenchError(f"margin must be a number, not {margin_raw!r}") from None
    # The form's field is in percentage points ("3" is 3 points, "0.5" half a point): never read
    # a small number as a fraction, or "0.5" (the field's own minimum) would mean 50 points.
    if not (math.isfinite(points) and 0 < points < 50):
        raise WorkbenchError(f"the smallest difference that matters must be more than 0 and less than 50 "
                             f"percentage points, not {margin_raw}")
    margin = points / 100
    stats.make_stop_rule(stop_rule, margin)
    players = number("players", 2, 2, _max_players(definition))
    opponents: list[Any] = []
    if players > 2:  # a pod (RULES.md §3.9.6): decks C and D default to deck B
        b = deck("b")
        opponents = [b] + [str(data.get(f"deck_{side}") or "").strip() or b for side in "cd"][:players - 2]
        if variant is not None or stop_rule != "none" or data.get("agent_check"):
            raise WorkbenchError("a pod of three or four players runs without a variant, an early stop or a "
                                 "check with a second kind of player: clear those, or choose 2 players")
    return {
        "deck_a": deck("a"),
        "deck_b": deck("b"),
        "players": players,
        "opponents": opponents,
        "agents": (_agent_spec(data, "a"), _agent_spec(data, "b")),
        "games": number("games", 1000, 1, MAX_GAMES),
        "seed": number("seed", 0, 0, 2**62),
        "workers": number("workers", jobs().max_workers, 1, 64),  # cut to the machine's cores
        "overrides": overrides,
        "stop": {"rule": stop_rule, "margin": margin} if stop_rule != "none" else None,
        "variant": variant,
        "agent_check": [str(data["agent_check"])] * 2 if data.get("agent_check") else None,
    }


@bp.post("/games/<game>/playtest")
def start(game: str) -> Any:
    """Start a run from the form (redirect to its page) or from JSON (202 with its URLs)."""
    definition = _game_or_404(game)
    try:
        params = _form_request(definition)
        if params["players"] > 2:
            return _start_pod(game, params)
        matchup, facts = service.prepare(
            get_repo(), game, params["deck_a"], params["deck_b"], agents=params["agents"],
            overrides=params["overrides"], seed=params["seed"],
        )
        if params["variant"] is not None:
            job = _start_variants(definition, matchup, facts, params)
        else:
            job = jobs().start(matchup, facts, params["games"], workers=params["workers"], stop=params["stop"],
                               by=current_user_name(), agent_check=params["agent_check"])
    except WorkbenchError as exc:
        status, headers = _refusal(exc)
        if request.is_json:
            return jsonify({"error": str(exc)}), status, headers
        repo = get_repo()
        decks, _ = repo.list_decks_tolerant(game)
        return render_template(
            "playtest/index.html", game=definition, game_id=game,
            decks=[(d.id, str(d.data.get("name", d.id))) for d in decks], agents=_agents(definition), agent_labels=AGENT_LABELS,
            options=list(definition.options.values()), runs=RunStore(repo).list(game)[:30], running=[],
            cpus=jobs().max_workers, max_players=_max_players(definition), error=str(exc), form=request.form,
        ), status, headers
    urls = {
        "id": job.id,
        "progress_url": url_for("playtest.progress", game=game, run_id=job.id),
        "report_url": url_for("playtest.report", game=game, run_id=job.id),
    }
    if request.is_json:
        return jsonify(urls), 202
    return redirect(urls["report_url"], code=303)


def _start_pod(game: str, params: dict[str, Any]) -> Any:
    """Start a pod (deck A with N−1 opponents, seats rotated, RULES.md §3.9.6) in the background;
    saved as one run of kind ``pod`` that keeps the pod, so each game replays."""
    import time as _time

    from workbench.services.playtest.pod import pod_to_data, run_pod

    pod, facts = service.prepare_pod(get_repo(), game, params["deck_a"], params["opponents"],
                                     agents=params["agents"], overrides=params["overrides"], seed=params["seed"])
    games, workers = params["games"], jobs().workers(params["workers"])
    total = -(-games // pod.players) * pod.players

    def work(progress: Any, should_cancel: Any) -> dict[str, Any]:
        report = run_pod(pod, games, workers, progress=progress, should_cancel=should_cancel)
        return {"kind": "pod", "created": _time.strftime("%Y-%m-%dT%H:%M:%SZ", _time.gmtime()),
                "engine": pod.engine, "agents": list(pod.agents), "seed": pod.seed, "games_requested": games,
                "workers": workers, **facts, "pod": pod_to_data(pod), "report": report}

    job = jobs().start_task(game, total, work, kind="pod", by=current_user_name())
    urls = {"id": job.id, "progress_url": url_for("playtest.progress", game=game, run_id=job.id),
            "report_url": url_for("playtest.report", game=game, run_id=job.id)}
    if request.is_json:
        return jsonify(urls), 202
    return redirect(urls["report_url"], code=303)


def _start_variants(definition: Any, matchup: Any, facts: dict[str, Any], params: dict[str, Any]) -> Any:
    """Start "compare with a variant": the matchup under the options as given, then with the
    variant's changes on top, on the same seeds; saved as one run of kind ``variants``."""
    import time as _time

    base = dict(params["overrides"])
    second = {**base, **params["variant"]}
    games, workers = params["games"], jobs().workers(params["workers"])

    def work(progress: Any, should_cancel: Any) -> dict[str, Any]:
        result = service.compare_variants(matchup, definition, base, second, games, format_id=facts["format"],
                                          workers=workers, progress=progress, should_cancel=should_cancel)
        return {"kind": "variants", "created": _time.strftime("%Y-%m-%dT%H:%M:%SZ", _time.gmtime()),
                "engine": matchup.engine, "agents": list(matchup.agents), "seed": matchup.seed,
                "games_requested": games, "workers": workers, **facts,
                "variant": dict(params["variant"]), "report": result}

    return jobs().start_task(matchup.game, 2 * (games + games % 2), work, kind="variants", by=current_user_name())


@bp.get("/api/games/<game>/playtests/<run_id>/progress")
def progress(game: str, run_id: str) -> Response:
    """Progress of a run as JSON: status (running, done, error, cancelled), done/total, rate, time left."""
    _game_or_404(game)
    try:
        check_run_id(run_id)
    except WorkbenchError:
        abort(404)
    job = jobs().get(run_id)
    if job is not None and job.game == game and job.status == "running":
        return jsonify(job.progress())
    try:
        run = RunStore(get_repo()).get(game, run_id)
    except WorkbenchError:
        live = jobs().progress(game, run_id)
        if live is None:
            abort(404, description=f"no playtest run {run_id!r}")
        if live.get("error"):
            from workbench.web.transfer_text import transfer_text

            live = {**live, "error_text": transfer_text(live["error"])}  # the failure in the reader's language
        return jsonify(live)
    games = (run.get("report") or {}).get("games", 0)
    return jsonify({"id": run_id, "game": game, "status": "done", "done": games, "total": games, "fraction": 1.0,
                    "elapsed_s": (run.get("report") or {}).get("elapsed_s"), "games_per_s": None, "eta_s": None,
                    "error": None})


@bp.post("/api/games/<game>/playtests/<run_id>/cancel")
def cancel(game: str, run_id: str) -> Response:
    """Ask a running job to stop (whichever server process plays it); it ends within a second or
    so, mid-chunk, keeping the games of the chunks it finished."""
    _game_or_404(game)
    try:
        check_run_id(run_id)
    except WorkbenchError:
        abort(404)
    _may_control(game, run_id, "cancel")
    progress = jobs().cancel(game, run_id)
    if progress is None:
        abort(404)
    return jsonify(progress)


@bp.post("/games/<game>/playtests/<run_id>/resume")
def resume(game: str, run_id: str) -> Any:
    """Continue an interrupted (or cancelled) run from the games it kept, in this server process.

    A form post redirects to the run's page; JSON gets 202 with the progress URL. 409 when the run
    is running, finished or cannot be resumed.
    """
    _game_or_404(game)
    try:
        check_run_id(run_id)
    except WorkbenchError:
        abort(404)
    _may_control(game, run_id, "resume")
    try:
        job = jobs().resume(game, run_id, by=current_user_name())
    except Timeout:
        abort(409, description="another server process is taking over this run right now")
    except RunsBusy as exc:
        status, headers = _refusal(exc)
        if request.is_json:
            return jsonify({"error": str(exc)}), status, headers
        abort(Response(str(exc), status, headers, mimetype="text/plain"))
    except WorkbenchError as exc:
        if jobs().progress(game, run_id) is None and not _run_exists(game, run_id):
            abort(404, description=str(exc))
        if request.is_json:
            return jsonify({"error": str(exc)}), 409
        abort(409, description=str(exc))
    urls = {"id": job.id, "progress_url": url_for("playtest.progress", game=game, run_id=job.id),
            "report_url": url_for("playtest.report", game=game, run_id=job.id)}
    if request.is_json:
        return jsonify(urls), 202
    return redirect(urls["report_url"], code=303)


def _refusal(exc: WorkbenchError) -> tuple[int, dict[str, str]]:
    """The status and headers of a refused start: 429 with Retry-After when the server (or the
    user) plays as many runs as allowed, else 400."""
    if isinstance(exc, RunsBusy):
        return 429, {"Retry-After": str(exc.retry_after)}
    return 400, {}


def _may_control(game: str, run_id: str, action: str) -> None:
    """Abort 403 unless this request may cancel or resume the run: in local mode anyone; in team
    mode a designer, or the account that started the run (viewers start their own runs and
    stop only those). 404 is left to the caller when there is no such run."""
    user = current_user()
    if user is None or can_edit():
        return
    job = jobs().get(run_id)
    owner = job.by if job is not None and job.game == game else None
    if job is None:
        state = jobs().live.state(game, run_id)
        owner = state.get("by") if state else None
        if state is None:
            return
    if owner != user.name:
        who = f"started by {owner}" if owner else "not started by a named account"
        abort(403, description=f"{user.name} is a viewer: viewers may {action} only the playtests they started "
                               f"(this one was {who}); ask a designer")


def _run_exists(game: str, run_id: str) -> bool:
    try:
        RunStore(get_repo()).get(game, run_id)
    except WorkbenchError:
        return False
    return True


@bp.get("/api/games/<game>/playtests/<run_id>")
def run_json(game: str, run_id: str) -> Response:
    """A finished run as stored (404 while it is still running; 400 when its file is damaged)."""
    _game_or_404(game)
    try:
        return jsonify(RunStore(get_repo()).get(game, run_id))
    except DataError as exc:
        abort(400, description=str(exc))
    except WorkbenchError:
        abort(404, description=f"no playtest run {run_id!r}")


@bp.get("/games/<game>/playtests/<run_id>")
def report(game: str, run_id: str) -> Any:
    """The report of a finished run, or the progress page of a running one."""
    definition = _game_or_404(game)
    try:
        check_run_id(run_id)
    except WorkbenchError:
        abort(404)
    store = RunStore(get_repo())
    try:
        run = store.get(game, run_id)
    except DataError as exc:  # a run file that is not JSON, or not an object
        abort(400, description=str(exc))
    except NotFound:
        live = jobs().progress(game, run_id)
        if live is None:
            abort(404, description=f"no playtest run {run_id!r}")
        return render_template("playtest/progress.html", game=definition, game_id=game, job=live)
    try:
        return _report_page(definition, game, run_id, run, store)
    except DAMAGED as exc:  # a run file edited or cut by hand: say so instead of a 500
        abort(400, description=f"playtest run {run_id} cannot be shown: its file is damaged "
                               f"({type(exc).__name__}: {str(exc)[:120]})")


# What a run file with the wrong shape raises while its page is built.
DAMAGED = (KeyError, TypeError, AttributeError, ValueError, IndexError, UndefinedError)


def _report_page(definition: Any, game: str, run_id: str, run: dict[str, Any], store: RunStore) -> Any:
    from workbench.web.help_views import HELP_FOR_RUN

    if run.get("kind") in HELP_FOR_RUN:  # Help goes to the section of this kind of report
        g.help_section = HELP_FOR_RUN[str(run["kind"])]
    if run.get("kind") == "variants":
        return render_template("playtest/variants.html", game=definition, game_id=game, run=run, report=run["report"],
                               charts=_variant_charts(run["report"]))
    if run.get("kind") == "gauntlet":
        return render_template("playtest/gauntlet.html", game=definition, game_id=game, run=run, report=run["report"])
    if run.get("kind") == "balance":
        return render_template("playtest/balance.html", game=definition, game_id=game, run=run, report=run["report"])
    if run.get("kind") == "pod":
        return render_template("playtest/pod.html", game=definition, game_id=game, run=run, report=run["report"])
    previous = store.previous(game, run_id)
    report = upgrade_report(run["report"])  # a report saved by an earlier version opens with a note
    return render_template(
        "playtest/report.html", game=definition, game_id=game, run=run, report=report,
        previous=previous, changes=changes_between(previous, run) if previous else None,
        charts=_charts(report),
    )


@bp.get("/games/<game>/playtests/<run_id>/games/<int:index>")
def replay(game: str, run_id: str, index: int) -> Any:
    """Replay one game of a run step by step: re-played from its seed and agents with the log on.

    A run played by the random or heuristic players replays at once; one played by the search or
    Monte Carlo players can take seconds, so the page offers a button (a POST) instead: a GET,
    which any web page can send to a local server, never starts that work.
    """
    definition, run, games = _replay_run(game, run_id, index)
    if not replay_is_cheap(run.get("agents") or ()):
        return render_template("playtest/replay.html", game=definition, game_id=game, run=run, index=index,
                               record=None, log=[], games=games)
    # Cheap players, but not always a cheap game: with decks at the size caps (10 x 999 copies) a
    # random player's game re-plays in 2.5-4 s, and 16 such GETs kept /healthz waiting 30 s. So
    # the GET takes a replay slot too (429 with Retry-After when none is free).
    try:
        with replay_slot():
            return _render_replay(definition, game, run, index, games)
    except ReplaysBusy as exc:
        raise TooManyRequests(description=str(exc), retry_after=RETRY_AFTER_SECONDS) from None


@bp.post("/games/<game>/playtests/<run_id>/games/<int:index>")
def replay_play(game: str, run_id: str, index: int) -> Any:
    """Replay one game of a run whatever its agents (the button of a search player's game).

    At most a few such replays run at once on the server; past that the answer is 429 with
    Retry-After.
    """
    definition, run, games = _replay_run(game, run_id, index)
    try:
        with replay_slot():
            return _render_replay(definition, game, run, index, games)
    except ReplaysBusy as exc:
        raise TooManyRequests(description=str(exc), retry_after=RETRY_AFTER_SECONDS) from None


def _replay_run(game: str, run_id: str, index: int) -> tuple[Any, dict[str, Any], int]:
    """The game definition, the stored run and its number of games, for replaying game ``index``.

    Aborts 400 for a damaged run file, 404 for an unknown run or an index past its games.
    """
    definition = _game_or_404(game)
    try:
        run = RunStore(get_repo()).get(game, run_id)
    except DataError as exc:
        abort(400, description=str(exc))
    except WorkbenchError:
        abort(404, description=f"no playtest run {run_id!r}")
    report = run.get("report") or {}
    games = report.get("games", 0) if isinstance(report, dict) else None
    if not isinstance(games, int) or isinstance(games, bool):
        abort(400, description=f"playtest run {run_id} cannot be replayed: its file is damaged (report)")
    if not 0 <= index < games:
        abort(404, description=f"run {run_id} has games 0–{games - 1}" if games else f"run {run_id} has no games to replay")
    return definition, run, games


def _render_replay(definition: Any, game: str, run: dict[str, Any], index: int, games: int) -> str:
    """Re-play game ``index`` of ``run`` with the log on and render its replay page.

    Aborts 409 when the run's decks or agents can no longer be played, 400 for a damaged file.
    """
    if run.get("kind") == "pod":
        return _render_pod_replay(definition, game, run, index, games)
    try:
        matchup = service.matchup_from_run(run)
        record, state = play_one(matchup, index, log=True)
    except WorkbenchError as exc:
        abort(409, description=str(exc))
    except DAMAGED as exc:
        abort(400, description=f"playtest run {run['id']} cannot be replayed: its file is damaged ({type(exc).__name__})")
    return render_template(
        "playtest/replay.html", game=definition, game_id=game, run=run, index=index, record=record,
        log=list(state.log), games=games,
    )


def _render_pod_replay(definition: Any, game: str, run: dict[str, Any], index: int, games: int) -> str:
    """Re-play game ``index`` of a pod run with the log on: the seats, the places, the log."""
    from workbench.services.playtest.pod import SIDES, pod_from_data, play_pod_game

    try:
        pod = pod_from_data(run["pod"])
        record, state = play_pod_game(pod, index, log=True)
    except WorkbenchError as exc:
        abort(409, description=str(exc))
    except DAMAGED as exc:
        abort(400, description=f"playtest run {run['id']} cannot be replayed: its file is damaged ({type(exc).__name__})")
    # The decks by name, as the two-player report and the table show them (the pod keeps ids).
    names = {side: str(d.get("name") or "") for side, d in (run.get("decks") or {}).items() if isinstance(d, dict)}
    labels = {SIDES[k]: names.get(SIDES[k]) or label for k, label in enumerate(pod.labels)}
    seats = [{"seat": s, "deck": side, "label": labels[side], "place": record["places"][side],
              "agent": pod.agents[0 if side == "a" else 1]} for s, side in enumerate(record["seats"])]
    return render_template("playtest/pod_replay.html", game=definition, game_id=game, run=run, index=index,
                           record=record, seats=seats, log=list(state.log), games=games)


# ---------------------------------------------------------------- SVG chart geometry


def _charts(report: dict[str, Any]) -> dict[str, Any]:
    """Numbers for the report's SVG charts, computed here so the template only draws."""
    width = 400

    def interval(rate: dict[str, Any]) -> dict[str, Any]:
        low, high = rate["ci95"]
        value = rate["value"] if rate["value"] is not None else 0.5
        return {"x": 20 + value * width, "low": 20 + low * width, "high": 20 + high * width,
                "value": value, "ci": (low, high)}

    bins = (report.get("turns") or {}).get("histogram") or []
    top = max((b["count"] for b in bins), default=0) or 1
    bar_w = (width / len(bins)) if bins else width
    bars = [{"x": 20 + i * bar_w, "w": max(1.0, bar_w - 2), "h": 120 * b["count"] / top, "y": 130 - 120 * b["count"] / top,
             "label": str(b["low"]) if b["low"] == b["high"] else f"{b['low']}–{b['high']}", "count": b["count"]}
            for i, b in enumerate(bins)]
    return {
        "width": width,
        "win_rate": interval(report["win_rate_a"]),
        "first_player": interval(report["first_player_win_rate"]),
        "histogram": bars,
        "histogram_top": top,
    }


def _variant_charts(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Interval-chart rows (deck A's win rate) for the two variants of a comparison."""
    width = 400
    rows = []
    for i, variant in enumerate(report["variants"]):
        rate = variant["win_rate_a"]
        low, high = rate["ci95"]
        value = rate["value"] if rate["value"] is not None else 0.5
        rows.append({"label": f"Variant {i + 1}", "y": 30 + 35 * i, "x": 20 + value * width,
                     "low": 20 + low * width, "high": 20 + high * width, "value": rate["value"]})
    return rows


# ---------------------------------------------------------------- goldfish and gauntlet


@bp.route("/games/<game>/playtest/goldfish", methods=["GET", "POST"])
def goldfish_page(game: str) -> Any:
    """One deck alone: opening hands under the mulligan rule and its speed against a passive player.

    GET shows the form (``?deck=`` preselects a deck); POST (with the CSRF token) runs it.
    Fields: ``deck`` (id) or ``text`` (a pasted list), ``games`` (development games, ≤ 300),
    ``seed`` (0 or more). Running games is POST only, so no other web page can start it with a link. The
    form answers 400 with the problem for a bad deck or number, and 429 with Retry-After when
    the server's goldfish slots are all taken (:mod:`workbench.web.goldfish_slots`).
    """
    from workbench.services.playtest import goldfish

    definition = _game_or_404(game)
    repo = get_repo()
    decks, _ = repo.list_decks_tolerant(game)
    deck_choices = [(d.id, str(d.data.get("name", d.id))) for d in decks]
    values = request.form if request.method == "POST" else request.args
    chosen = values.get("deck") or (deck_choices[0][0] if deck_choices else "")
    text = (values.get("text") or "").strip()[:MAX_PASTE]
    result: dict[str, Any] | None = None
    error = None
    # Kept as typed, so a refused number comes back in its field beside the reason.
    games_text = str(values.get("games") or "").strip()[:40]
    seed_text = str(values.get("seed") or "").strip()[:40]
    games, seed = 100, 0
    try:
        games = _whole_number("games", games_text, 100, 1, MAX_GOLDFISH_GAMES)
        seed = _whole_number("seed", seed_text, 0, 0, MAX_SEED)
    except WorkbenchError as exc:
        error = str(exc)
    asked = request.method == "POST"
    status, headers = (400 if error else 200), {}
    if asked and error is None:
        try:
            # The slot first: a refused request costs nothing, not even reading a 10,000-card list.
            with goldfish_slot():  # the games below take seconds of this process's one interpreter lock
                deck = service.load_deck(repo, game, {"text": text, "name": gettext("Pasted list")} if text else chosen)
                options = definition.resolve_options(deck.data.get("format") if deck.data.get("format") in definition.formats else None)
                result = {"deck": deck.describe()}
                try:
                    result["hands"] = goldfish.opening_hands(definition, deck.cards, options, seed=seed)
                except WorkbenchError as exc:
                    result["hands_error"] = str(exc)
                if definition.engine:
                    result["development"] = goldfish.development(definition.engine, deck.cards, options, games=games, seed=seed,
                                                                 deck_name=deck.name)
        except GoldfishBusy as exc:
            error, result, status, headers = str(exc), None, 429, {"Retry-After": str(exc.retry_after)}
        except WorkbenchError as exc:
            error, result, status = str(exc), None, 400
    return render_template("playtest/goldfish.html", game=definition, game_id=game, decks=deck_choices,
                           chosen=chosen, text=text, games=games_text or games, seed=seed_text or seed,
                           max_games=MAX_GOLDFISH_GAMES, result=result, error=error), status, headers


def _whole_number(field: str, raw: str, default: int, low: int, high: int) -> int:
    """A form's whole number in ``low``–``high`` (``default`` when empty). Refuses, naming the field
    and its limits, text that is no whole number and a number out of range (never cuts it)."""
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise WorkbenchError(f"{field} must be a whole number, not {raw[:40]!r}") from None
    if not low <= value <= high:
        raise WorkbenchError(f"{field} must be between {low:,} and {high:,}, not {value:,}")
    return value


@bp.get("/games/<game>/playtest/gauntlet")
def gauntlet_form(game: str) -> str:
    """The gauntlet form: one deck against every other deck of the game."""
    definition = _game_or_404(game)
    decks, _ = get_repo().list_decks_tolerant(game)
    return render_template("playtest/gauntlet_form.html", game=definition, game_id=game,
                           decks=[(d.id, str(d.data.get("name", d.id))) for d in decks],
                           agents=_agents(definition), agent_labels=AGENT_LABELS, cpus=jobs().max_workers, error=None)


def _background_form(default_games: int, min_games: int, max_games: int, what: str,
                     form: str) -> tuple[int, int, int, tuple[str, str]]:
    """(games, seed, workers, agents) of a gauntlet or balance form; workers cut to the machine's cores.

    Raises WorkbenchError naming the field for text that is not a whole number or a number out of
    range (never Python's own ``int()`` message)."""

    def number(key: str, label: str, default: int, low: int, high: int) -> int:
        return _whole_number(label, str(request.form.get(key) or "").strip(), default, low, high)

    games = number("games", what, default_games, min_games, max_games)
    seed = number("seed", "seed", 0, 0, 2**62)
    workers = number("workers", "workers", jobs().max_workers, 1, 64)
    agents = (_agent_spec(request.form, "a", form), _agent_spec(request.form, "b", form))
    return games, seed, jobs().workers(workers), agents


@bp.post("/games/<game>/playtest/gauntlet")
def gauntlet_start(game: str) -> Any:
    """Start a gauntlet in the background and go to its page (progress, then the table)."""
    import time as _time

    definition = _game_or_404(game)
    repo = get_repo()
    deck = str(request.form.get("deck") or "")
    try:
        games, seed, workers, agents = _background_form(200, 1, MAX_GAMES, "games", "gauntlet")
        opponents = [d.id for d in repo.list_decks(game) if d.id != deck]
        if not opponents:
            raise WorkbenchError("the game has no other deck to play against")
        own = service.load_deck(repo, game, deck)
        service.prepare(repo, game, deck, opponents[0], agents=agents)  # checks agents and decks now
        # What the engine does not play as written, in any deck of the gauntlet (a matchup report's top block)
        loaded = [own] + [service.load_deck(repo, game, o) for o in opponents]
        unsimulated = service.unsimulated_reasons(definition, loaded)
        unsimulated_names = {str(c["id"]): str(c.get("name") or c["id"]) for d in loaded for cards in d.cards.values()
                             for c in cards if str(c["id"]) in unsimulated}
    except (WorkbenchError, ValueError) as exc:
        decks, _ = repo.list_decks_tolerant(game)
        return render_template("playtest/gauntlet_form.html", game=definition, game_id=game,
                               decks=[(d.id, str(d.data.get("name", d.id))) for d in decks], agents=_agents(definition), agent_labels=AGENT_LABELS,
                               cpus=jobs().max_workers, error=str(exc), form=request.form), 400

    def work(progress: Any, should_cancel: Any) -> dict[str, Any]:
        started = _time.perf_counter()
        result = service.run_gauntlet(repo, game, deck, games, opponents=opponents, agents=agents, seed=seed,
                                      workers=workers, progress=progress, should_cancel=should_cancel)
        result["elapsed_s"] = round(_time.perf_counter() - started, 2)
        return {"kind": "gauntlet", "created": _time.strftime("%Y-%m-%dT%H:%M:%SZ", _time.gmtime()),
                "decks": {"a": own.describe(), "b": {"id": None, "name": f"{len(opponents)} opponents", "version": None}},
                "agents": list(agents), "seed": seed, "report": result,
                "unsimulated_reasons": unsimulated, "unsimulated_names": unsimulated_names}

    try:
        job = jobs().start_task(game, (games + games % 2) * len(opponents), work, kind="gauntlet",
                                by=current_user_name())
    except RunsBusy as exc:
        status, headers = _refusal(exc)
        decks, _ = repo.list_decks_tolerant(game)
        return render_template("playtest/gauntlet_form.html", game=definition, game_id=game,
                               decks=[(d.id, str(d.data.get("name", d.id))) for d in decks], agents=_agents(definition),
                               agent_labels=AGENT_LABELS, cpus=jobs().max_workers, error=str(exc),
                               form=request.form), status, headers
    return redirect(url_for("playtest.report", game=game, run_id=job.id), code=303)


# ---------------------------------------------------------------- balance report


MAX_BALANCE_GAMES = 20_000


def _balance_form(game: str, definition: Any, error: str | None = None, status: int = 200,
                  headers: dict[str, str] | None = None) -> Any:
    decks, _ = get_repo().list_decks_tolerant(game)
    return render_template("playtest/balance_form.html", game=definition, game_id=game,
                           decks=[(d.id, str(d.data.get("name", d.id))) for d in decks], agents=_agents(definition),
                           cpus=jobs().max_workers, error=error,
                           form=request.form if request.method == "POST" else {}), status, headers or {}


@bp.get("/games/<game>/playtest/balance")
def balance_form(game: str) -> Any:
    """The balance form: a deck, its opponent, games per card."""
    return _balance_form(game, _game_or_404(game))


@bp.post("/games/<game>/playtest/balance")
def balance_start(game: str) -> Any:
    """Start a balance report in the background and go to its page (progress, then the table)."""
    import time as _time

    from workbench.services.playtest.balance import balance_report

    definition = _game_or_404(game)
    repo = get_repo()
    deck = str(request.form.get("deck") or "")
    vs = str(request.form.get("vs") or "")
    try:
        games, seed, workers, agents = _background_form(400, 2, MAX_BALANCE_GAMES, "games per card", "balance")
        matchup, facts = service.prepare(repo, game, deck, vs, agents=agents, seed=seed)  # checks decks and agents
    except (WorkbenchError, ValueError) as exc:
        return _balance_form(game, definition, str(exc), 400)
    cards = {str(c["id"]) for zone in service.play_zones(definition) for c in matchup.deck_a.get(zone, ())}

    def work(progress: Any, should_cancel: Any) -> dict[str, Any]:
        result = balance_report(repo, game, deck, vs, games, seed=seed, agents=agents, workers=workers,
                                progress=progress, should_cancel=should_cancel)
        return {"kind": "balance", "created": _time.strftime("%Y-%m-%dT%H:%M:%SZ", _time.gmtime()),
                "decks": facts["decks"], "agents": list(agents), "seed": seed, "report": result,
                # cards the engine plays without (some of) their rules: their "change" is their stats'
                "unsimulated_reasons": facts.get("unsimulated_reasons") or {}}

    try:
        job = jobs().start_task(game, (games + games % 2) * (len(cards) + 1), work, kind="balance",
                                by=current_user_name())
    except RunsBusy as exc:
        status, headers = _refusal(exc)
        return _balance_form(game, definition, str(exc), status, headers)
    return redirect(url_for("playtest.report", game=game, run_id=job.id), code=303)
