"""Pod scenarios: a tiny seeded pod played by the real pod runner (RULES.md §3.9.6, docs/scenarios.md).

A ``kind: pod`` scenario gives a card library, three or four decks (deck A first) and a number
of games; :func:`run_pod_scenario` builds the :class:`~workbench.services.playtest.pod.Pod` the
playtest page and ``workbench playtest`` would build, plays it with :func:`run_pod` on one worker,
and compares the pod report (docs/playtests.md, *Pods*) with the scenario's ``expect`` as a
subset, as play scenarios compare the engine's snapshot::

    kind: pod
    cards: {wolf: {...}}
    decks: [{zones: {main: {wolf: 12}}}, {zones: {main: {wolf: 5}}}, {zones: {main: {wolf: 5}}}]
    games: 6
    expect: {rotations: 2, records: {1: {seats: [c, a, b]}}, verdict: above}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.domain.errors import WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.scenario_results import (
    ScenarioError,
    ScenarioResult,
    check_keys,
    check_options,
    first_difference,
    scenario_header,
)
from workbench.services.playtest.pod import Pod, check_pod, run_pod

TOP_KEYS = frozenset({"game", "kind", "name", "rule", "description", "options", "seed", "agents",
                      "cards", "decks", "games", "expect"})
MAX_GAMES = 48
"""A pod scenario stays a quick check: at most this many games (whole rotations)."""


def check_pod_shape(scenario: Any) -> None:
    """Raise ScenarioError unless ``scenario`` is a well-formed pod scenario."""
    if not isinstance(scenario, Mapping) or scenario.get("kind") != "pod":
        raise ScenarioError("a pod scenario is a mapping with kind: pod")
    check_keys(scenario, TOP_KEYS, ("game", "name", "cards", "decks", "games", "expect"),
               unknown="unknown keys for a pod scenario", needs="a pod scenario")
    if not isinstance(scenario["cards"], Mapping):
        raise ScenarioError("cards must map card ids to card mappings")
    decks = scenario["decks"]
    if not isinstance(decks, list) or not all(isinstance(d, Mapping) for d in decks):
        raise ScenarioError("decks must list deck mappings ({zones: {zone: {card id: copies}}}), deck A first")
    games = scenario["games"]
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise ScenarioError(f"games must be a whole number from 1 to {MAX_GAMES}")
    agents = scenario.get("agents", ["random", "random"])
    if not isinstance(agents, list) or len(agents) != 2:
        raise ScenarioError("agents must list two players: deck A's and the opponents'")
    if not isinstance(scenario["expect"], Mapping) or not scenario["expect"]:
        raise ScenarioError("expect must be a non-empty mapping (a subset of the pod report)")
    check_options(scenario)


def _deck_cards(deck: Mapping[str, Any], library: Mapping[str, Any], where: str) -> dict[str, list[dict[str, Any]]]:
    """A deck mapping resolved against the library: zone -> card data per copy (with ``id``)."""
    zones = deck.get("zones")
    if not isinstance(zones, Mapping):
        raise ScenarioError(f"{where}: a deck needs zones: {{zone: {{card id: copies}}}}")
    resolved: dict[str, list[dict[str, Any]]] = {}
    for zone, content in zones.items():
        copies: list[dict[str, Any]] = []
        for card_id, count in (content or {}).items():
            card = library.get(card_id)
            if not isinstance(card, Mapping):
                raise ScenarioError(f"{where}: card {card_id!r} is not in the scenario's cards")
            if not isinstance(count, int) or isinstance(count, bool) or not 0 < count <= 60:
                raise ScenarioError(f"{where}: {card_id} has {count!r} copies; give 1 to 60")
            copies.extend(dict(card, id=str(card_id)) for _ in range(count))
        resolved[str(zone)] = copies
    return resolved


def build_pod(scenario: Mapping[str, Any], definition: GameDefinition) -> Pod:
    """The pod a scenario describes, with the game's options (defaults, then the scenario's).

    Raises ScenarioError for a malformed scenario, PlaytestError or DefinitionError for a pod the
    runner refuses (an engine that seats fewer players, a bad option).
    """
    check_pod_shape(scenario)
    library = scenario["cards"]
    decks = tuple(_deck_cards(d, library, f"decks.{k}") for k, d in enumerate(scenario["decks"]))
    options = definition.resolve_options(None, dict(scenario.get("options") or {}))
    options["players"] = len(decks)
    agents = scenario.get("agents", ["random", "random"])
    labels = tuple(str(d.get("name") or "abcd"[k]) for k, d in enumerate(scenario["decks"]))
    pod = Pod(game=definition.id, engine=str(definition.engine or definition.id), decks=decks, options=options,
              agents=(str(agents[0]), str(agents[1])), seed=int(scenario.get("seed", 0) or 0), labels=labels)
    check_pod(pod)
    return pod


def run_pod_scenario(scenario: Mapping[str, Any], definition: GameDefinition | None) -> ScenarioResult:
    """Play the scenario's pod and compare its report with ``expect``; never raises.

    The result names the first difference as a path into the report (``records.1.seats.0:
    expected 'c', got 'b'``), or ``error: …`` for a malformed scenario or a refused pod.
    """
    name, game, rule = scenario_header(scenario)
    try:
        if definition is None:
            raise ScenarioError(f"a pod scenario needs the game definition of {game!r}")
        pod = build_pod(scenario, definition)
        report = run_pod(pod, int(scenario["games"]), workers=1)
    except WorkbenchError as exc:
        return ScenarioResult(name, game, rule, False, f"error: {exc}")
    diff = first_difference(scenario["expect"], report)
    if diff:
        return ScenarioResult(name, game, rule, False, f"pod report: {diff}", int(report["games"]))
    return ScenarioResult(name, game, rule, True, "", int(report["games"]))
