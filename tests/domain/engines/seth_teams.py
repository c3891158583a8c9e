"""Two legal seth line-ups (§2.2: 5 monsters, total Power < 30) used by the seth engine tests."""

from __future__ import annotations

from typing import Any

EMBER: list[dict[str, Any]] = [
    {"id": "ember-imp", "name": "Ember Imp", "kind": "monster", "power": 4, "damage": 4, "health": 6,
     "speed": ["fast"], "race": "imp", "element": "fire", "vulnerable": ["magical"]},
    {"id": "ash-drake", "name": "Ash Drake", "kind": "monster", "power": 8, "damage": 6, "health": 12,
     "speed": ["medium"], "race": "dragon", "element": "fire", "resist": ["fire"], "keywords": ["flight"],
     "text": "Flight."},
    {"id": "cinder-golem", "name": "Cinder Golem", "kind": "monster", "power": 7, "damage": 5, "health": 14,
     "speed": ["slow"], "race": "golem", "element": "physical", "resist": ["physical"],
     "vulnerable": ["magical"]},
    {"id": "spark-witch", "name": "Spark Witch", "kind": "monster", "power": 5, "damage": 3, "health": 8,
     "speed": ["fast", "medium"], "race": "human", "element": "magical",
     "text": "Activate: deal 2 damage to a monster.",
     "effects": [{"trigger": "activated", "action": "damage", "target": "enemy_creature", "amount": 2}]},
    {"id": "bog-hound", "name": "Bog Hound", "kind": "monster", "power": 4, "damage": 3, "health": 7,
     "speed": ["medium", "slow"], "race": "beast", "element": "poison",
     "text": "When first assigned, put a poison counter on a monster.",
     "effects": [{"trigger": "on_play", "action": "add_poison", "target": "enemy_creature", "amount": 1}]},
]

GROVE: list[dict[str, Any]] = [
    {"id": "thorn-wolf", "name": "Thorn Wolf", "kind": "monster", "power": 5, "damage": 5, "health": 8,
     "speed": ["fast"], "race": "beast", "element": "physical", "vulnerable": ["fire"]},
    {"id": "old-treant", "name": "Old Treant", "kind": "monster", "power": 9, "damage": 5, "health": 18,
     "speed": ["slow"], "race": "plant", "element": "physical", "resist": ["physical"],
     "vulnerable": ["fire"]},
    {"id": "moth-swarm", "name": "Moth Swarm", "kind": "monster", "power": 4, "damage": 3, "health": 6,
     "speed": ["fast", "slow"], "race": "insect", "element": "poison", "keywords": ["flight"]},
    {"id": "grove-healer", "name": "Grove Healer", "kind": "monster", "power": 5, "damage": 2, "health": 9,
     "speed": ["medium"], "race": "dryad", "element": "magical", "text": "Activate: heal 3 from a monster.",
     "effects": [{"trigger": "activated", "action": "heal", "target": "own_creature", "amount": 3}]},
    {"id": "stone-boar", "name": "Stone Boar", "kind": "monster", "power": 6, "damage": 5, "health": 12,
     "speed": ["medium"], "race": "beast", "element": "physical", "text": "Tramples through hedges."},
]

DEFAULTS: dict[str, Any] = {
    "team_size": 5, "power_limit": 30, "max_copies": None, "resist_factor": 0.5,
    "vulnerable_factor": 2, "max_rounds": 50, "flight_reduction": 1, "flight_once_per_phase": True,
    "damage_persists": True, "power_limit_strict": True,
}


def decks() -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    return {"team": [dict(c) for c in EMBER]}, {"team": [dict(c) for c in GROVE]}
