"""Playtests on the bundled games: saved and pasted decks, gauntlet, variants, goldfish, CLI JSON."""

from __future__ import annotations

import json

import pytest

from workbench.domain import stats
from workbench.domain.errors import DefinitionError, NotFound
from workbench.services.playtest import goldfish, service
from workbench.services.playtest.decklist import DeckListError, parse_deck_list
from workbench.services.playtest.runner import run_matchup


@pytest.fixture(scope="module")
def ro_repo(tmp_path_factory):
    """One private data copy for the tests of this module that change nothing (faster than one each)."""
    import shutil
    from pathlib import Path

    from workbench.storage.repository import Repository

    target = tmp_path_factory.mktemp("playtest") / "card_data"
    shutil.copytree(Path(__file__).resolve().parents[3] / "card_data", target,
                    ignore=shutil.ignore_patterns(".locks", ".tmp-*", "playtests"))
    return Repository(target)


def test_prepare_resolves_saved_decks_with_their_versions(ro_repo):
    matchup, facts = service.prepare(ro_repo, "seth", "rot-and-stone", "skyburn-blitz", seed=3)
    assert matchup.engine == "seth" and matchup.seed == 3
    assert facts["decks"]["a"] == {"id": "rot-and-stone", "name": "Rot and Stone",
                                   "version": ro_repo.get_deck("seth", "rot-and-stone").version}
    assert set(facts["card_versions"]) == {c["id"] for d in (matchup.deck_a, matchup.deck_b) for z in d.values() for c in z}
    assert set(matchup.card_ids["a"]) == set(ro_repo.get_deck("seth", "rot-and-stone").data["zones"]["team"])


def test_rule_option_overrides_are_type_checked(ro_repo):
    matchup, facts = service.prepare(ro_repo, "seth", "rot-and-stone", "skyburn-blitz", overrides={"max_rounds": "7"})
    assert matchup.options["max_rounds"] == 7 and facts["overrides"] == {"max_rounds": "7"}
    with pytest.raises(DefinitionError, match="no rule option 'lives'"):
        service.prepare(ro_repo, "seth", "rot-and-stone", "skyburn-blitz", overrides={"lives": "3"})
    with pytest.raises(DefinitionError, match="must be a integer|must be a"):
        service.prepare(ro_repo, "seth", "rot-and-stone", "skyburn-blitz", overrides={"max_rounds": "many"})


def test_a_pasted_list_plays_like_the_saved_deck_it_copies(ro_repo):
    saved = ro_repo.get_deck("seth", "skyburn-blitz").data["zones"]["team"]
    names = {cid: ro_repo.get_card("seth", cid).data["name"] for cid in saved}
    text = "\n".join(f"{n} {names[cid].upper()}" for cid, n in saved.items())  # names match case-insensitively
    from_text, facts = service.prepare(ro_repo, "seth", "rot-and-stone", {"text": text, "name": "pasted"}, seed=5)
    from_file, _ = service.prepare(ro_repo, "seth", "rot-and-stone", "skyburn-blitz", seed=5)
    assert facts["decks"]["b"] == {"id": None, "name": "pasted", "version": None}
    one = run_matchup(from_text, 20, workers=1)
    two = run_matchup(from_file, 20, workers=1)
    assert one["records"] == two["records"]


def test_deck_list_parsing_headings_ids_and_errors(ro_repo):
    definition = ro_repo.game("warzone")
    cards = ro_repo.card_index("warzone")
    creature = next(cid for cid, c in sorted(cards.items()) if c["kind"] == "creature")
    area = next(cid for cid, c in sorted(cards.items()) if c["kind"] == "area")
    deck = parse_deck_list(f"# my list\n3x {creature}\n1 {cards[area]['name']}\nSide:\n2 {creature}\n", definition, cards)
    assert deck["zones"] == {"main": {creature: 3}, "area": {area: 1}, "side": {creature: 2}}
    with pytest.raises(DeckListError, match="line 2: no card named 'Nobody'"):
        parse_deck_list(f"1 {creature}\n2 Nobody\n", definition, cards)
    with pytest.raises(DeckListError, match="line 1: .* is not 'count name'"):
        parse_deck_list("three of them\n", definition, cards)
    with pytest.raises(DeckListError, match="names no cards"):
        parse_deck_list("# nothing\n", definition, cards)


def test_gauntlet_gives_one_row_per_other_deck(repo):
    extra = dict(repo.get_deck("seth", "skyburn-blitz").data, name="Blitz copy")
    repo.create_deck("seth", extra, "blitz-copy")
    result = service.run_gauntlet(repo, "seth", "rot-and-stone", 20, seed=1, workers=1)
    assert [r["opponent"] for r in result["rows"]] == ["blitz-copy", "skyburn-blitz"]
    # The copy is the same list, so on the same seeds it scores the same.
    first, second = result["rows"]
    assert (first["wins"], first["losses"], first["draws"]) == (second["wins"], second["losses"], second["draws"])
    assert sum(r["games"] for r in result["rows"]) == result["overall"]["n"] == 40


def test_unknown_decks_fail_clearly(ro_repo):
    with pytest.raises(NotFound, match="no-such-deck"):
        service.prepare(ro_repo, "seth", "rot-and-stone", "no-such-deck")
    with pytest.raises(NotFound, match="gone"):
        service.run_gauntlet(ro_repo, "seth", "rot-and-stone", 2, opponents=["gone"], workers=1)


def test_variants_compare_the_same_seeds_under_two_rule_sets(ro_repo):
    matchup, facts = service.prepare(ro_repo, "fusion", "lie-yan-ji-feng", "pan-shi-chao-xi", seed=2)
    result = service.compare_variants(matchup, ro_repo.game("fusion"), {}, {"start_life": "6"}, 30, workers=1)
    base, low_life = result["variants"]
    assert low_life["options"]["start_life"] == 6 and base["options"]["start_life"] == 20
    assert low_life["turns"]["mean"] < base["turns"]["mean"]
    assert result["difference"]["turns_mean"] == pytest.approx(low_life["turns"]["mean"] - base["turns"]["mean"])
    assert result["games"] == 30
    paired = result["difference"]["win_rate_a_paired"]
    assert paired["pairs"] == 15
    assert paired["value"] == pytest.approx(result["difference"]["win_rate_a"])


def test_gauntlet_overall_rate_counts_pairs(repo):
    result = service.run_gauntlet(repo, "seth", "rot-and-stone", 20, seed=1, workers=1)
    overall = result["overall"]
    assert overall["unit"] == "pair" and overall["pairs"] == 10 * len(result["rows"])
    assert overall["counts"] == [sum(r["win_rate"]["counts"][i] for r in result["rows"]) for i in range(5)]


def test_goldfish_opening_hands_follow_the_game_rules_and_the_exact_odds(ro_repo):
    definition = ro_repo.game("fusion")
    deck = ro_repo.deck_cards("fusion", "lie-yan-ji-feng")
    options = definition.resolve_options(None)
    hands = goldfish.opening_hands(definition, deck, options, samples=3000, seed=1)
    assert hands["hand_size"] == 5 and hands["mulligans_allowed"] == 3  # RULES §3.1.5
    assert hands["deck_size"] == len(deck["main"])
    for card in hands["cards"]:
        exact = stats.hypergeom_at_least(1, hands["deck_size"], card["copies"], 5)
        assert card["p_in_opening_hand"] == pytest.approx(exact)
        assert abs(card["sampled"] - exact) < 0.04  # 3,000 samples: within ~4 standard errors
    assert sum(hands["mulligans_taken"].values()) == pytest.approx(1.0)
    # A demanding keep rule mulligans more often.
    picky = goldfish.opening_hands(definition, deck, options, samples=500, keep_min=4)
    assert picky["mulligans_taken"].get("0", 0) < hands["mulligans_taken"]["0"]


def test_goldfish_for_a_game_without_opening_hands_says_so(ro_repo):
    with pytest.raises(service.PlaytestError, match="no opening hand"):
        goldfish.opening_hands(ro_repo.game("seth"), ro_repo.deck_cards("seth", "rot-and-stone"),
                               ro_repo.game("seth").resolve_options(None))


def test_goldfish_development_against_a_passive_opponent(ro_repo):
    deck = ro_repo.deck_cards("fusion", "lie-yan-ji-feng")
    result = goldfish.development("fusion", deck, ro_repo.game("fusion").resolve_options(None), games=10, seed=1)
    assert result["kill_turn"]["games"] + result["no_kill"] == 10
    assert result["kill_turn"]["games"] > 0 and result["kill_turn"]["median"] >= 2


def test_goldfish_development_does_not_count_what_the_setup_puts_out(ro_repo):
    """Warzone places each player's three Areas before turn 1 (RULES §1.3.2) and counts them as
    played: the goldfish said every deck had 3 different cards played by turn 0."""
    deck = ro_repo.deck_cards("warzone", "iron-bastion")
    result = goldfish.development("warzone", deck, ro_repo.game("warzone").resolve_options(None), games=6, seed=2)
    board = result["board_turn"]
    assert board["games"] > 0 and board["median"] >= 1 and min(h["low"] for h in board["histogram"]) >= 1


def test_cli_json_has_the_documented_shape_and_is_the_same_with_any_workers(data_dir, capsys):
    from workbench.cli import main

    def run(workers: str) -> dict:
        code = main(["playtest", "seth", "rot-and-stone", "skyburn-blitz", "--games", "60", "--seed", "9",
                     "--workers", workers, "--json", "--quiet", "--data", str(data_dir)])
        assert code == 0
        return json.loads(capsys.readouterr().out)

    one, two = run("1"), run("2")
    for key in ("game", "deck_a", "deck_b", "games", "seed", "wins_a", "wins_b", "draws", "win_rate_a",
                "first_player_win_rate", "turns", "end_reasons", "cards", "unsimulated_cards", "elapsed_s",
                "games_per_s"):
        assert key in one, key
    assert (one["game"], one["deck_a"], one["deck_b"], one["games"], one["seed"]) == ("seth", "rot-and-stone", "skyburn-blitz", 60, 9)
    assert set(one["win_rate_a"]) >= {"value", "ci95"} and len(one["win_rate_a"]["ci95"]) == 2
    assert set(one["turns"]) >= {"mean", "median"}
    assert "records" not in one
    drop = {"elapsed_s", "games_per_s", "workers"}
    assert {k: v for k, v in one.items() if k not in drop} == {k: v for k, v in two.items() if k not in drop}


def test_cli_saves_runs_and_reads_pasted_lists(data_dir, tmp_path, capsys, repo):
    from workbench.cli import main
    from workbench.storage.playtest_runs import RunStore

    team = repo.get_deck("seth", "skyburn-blitz").data["zones"]["team"]
    listing = tmp_path / "blitz.txt"
    listing.write_text("".join(f"{n} {cid}\n" for cid, n in team.items()), encoding="utf-8")
    code = main(["playtest", "seth", "rot-and-stone", f"@{listing}", "-n", "10", "--workers", "1", "--json", "-q",
                 "--save", "--data", str(data_dir)])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    run = RunStore(repo).get("seth", out["run_id"])
    assert run["decks"]["b"]["name"] == "blitz" and run["report"]["games"] == 10
    assert main(["playtest", "seth", "rot-and-stone", "-n", "2", "--data", str(data_dir)]) == 2
    assert main(["playtest", "seth", "rot-and-stone", "skyburn-blitz", "-n", "2", "-o", "nope=1", "--data", str(data_dir)]) == 1


def test_the_variant_difference_interval_is_newcombes_hybrid_score_interval():
    # Newcombe (1998), Statistics in Medicine 17:873, table II: 56/70 - 48/80 -> 0.0524 to 0.3339.
    low, high = service.difference_interval(stats.rate(48, 80), stats.rate(56, 70))
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)
    assert service.difference_interval(stats.rate(0, 0), stats.rate(1, 2)) is None


def test_prepare_lists_what_the_engine_does_not_play_and_why(ro_repo):
    _, facts = service.prepare(ro_repo, "fusion", "lie-yan-ji-feng", "pan-shi-chao-xi")
    assert facts["unplayed_zones"] == []  # the engine plays fusion's extra deck (RULES.md §3.10.2)
    assert service.unplayed_zones(["main"], {"a": {"main": [], "extra": [{"id": "yan-feng-he-ti-long"}]}}) == [
        {"deck": "a", "zone": "extra", "card": "yan-feng-he-ti-long", "name": "yan-feng-he-ti-long", "copies": 1}]
    reasons = facts["unsimulated_reasons"]
    matchup, _ = service.prepare(ro_repo, "fusion", "lie-yan-ji-feng", "pan-shi-chao-xi")
    unsimulated = service.run_matchup(matchup, 2, 1)["unsimulated_cards"]
    assert unsimulated and set(unsimulated) <= set(reasons)  # every card the engine lists has its why
    assert all(reasons[c] and all(isinstance(r, str) and r for r in reasons[c]) for c in unsimulated)
