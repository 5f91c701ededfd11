"""How well the Dixit family's computer players play (engine/games/dixit_bot.py), seeded, 300 turns each.

- A computer storyteller facing computer voters: the share of turns where some but not all find
  the card (what scores in Dixit). Target >= 50 %.
- A computer voter facing phrases written by people (each card's title stands in): how often it
  finds the storyteller's card among 6 on the table, against chance (1 in 5: not its own card).
  Target >= 3x chance.
- CPU time for a computer player to choose a move from its view, p95. Target <= 50 ms.

    .venv/bin/python bench/bots.py [--turns 300] [--language en]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import figure, pct  # noqa: E402
from engine import pictures  # noqa: E402
from engine.games import dixit_bot as bot  # noqa: E402

HAND = 6


def storyteller_turns(turns: int, players: int, language: str, rnd: random.Random) -> tuple[float, list[float]]:
    """Share of turns where some but not all computer voters find a computer storyteller's card."""
    deck = pictures.deck_cards("dreams")
    good, times = 0, []
    for _ in range(turns):
        cards = rnd.sample(deck, HAND * players)
        hands = [cards[i * HAND : (i + 1) * HAND] for i in range(players)]
        start = time.process_time()
        move = bot.play(
            {"language": language, "phase": "tell"},
            [{"type": "tell", "seat": 0, "card": c, "phrase": None} for c in hands[0]],
            rnd,
            "normal",
        )
        times.append(time.process_time() - start)
        story, phrase = move["card"], move["phrase"]
        table = [story]
        for seat in range(1, players):
            level = "normal" if seat % 2 else "easy"
            start = time.process_time()
            give = bot.play(
                {"language": language, "phrase": phrase, "phase": "give"},
                [{"type": "give", "seat": seat, "cards": [c]} for c in hands[seat]],
                rnd,
                level,
            )
            times.append(time.process_time() - start)
            table.append(give["cards"][0])
        order = list(range(players))
        rnd.shuffle(order)
        shown = [{"position": i + 1, "card": table[s]} for i, s in enumerate(order)]
        found = 0
        for seat in range(1, players):
            level = "normal" if seat % 2 else "easy"
            own = next(p["position"] for p in shown if p["card"] == table[seat])
            legal = [{"type": "vote", "seat": seat, "position": p["position"]} for p in shown if p["position"] != own]
            start = time.process_time()
            vote = bot.play(
                {"language": language, "phrase": phrase, "table": shown, "phase": "vote"}, legal, rnd, level
            )
            times.append(time.process_time() - start)
            found += shown[vote["position"] - 1]["card"] == story
        good += 0 < found < players - 1
    return good / turns, times


def voter_turns(turns: int, table_size: int, rnd: random.Random) -> float:
    """How often a computer voter finds the card whose title is the phrase, among `table_size`."""
    deck = pictures.deck_cards("dreams")
    found = 0
    for _ in range(turns):
        table = rnd.sample(deck, table_size)
        story, own = table[0], table[1]
        phrase = pictures.card_words(story)["title"]
        rnd.shuffle(table)
        shown = [{"position": i + 1, "card": c} for i, c in enumerate(table)]
        legal = [{"type": "vote", "seat": 1, "position": p["position"]} for p in shown if p["card"] != own]
        vote = bot.play({"language": "en", "phrase": phrase, "table": shown, "phase": "vote"}, legal, rnd, "normal")
        found += shown[vote["position"] - 1]["card"] == story
    return found / turns


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    rnd = random.Random(2026)
    all_times = []
    for language in ("en", "es", "it"):
        share, times = storyteller_turns(args.turns, args.players, language, rnd)
        all_times += times
        figure(
            f"Computer storyteller vs computer voters ({language}, {args.players} players): some but not all find it",
            f"{share:.0%}",
            ">= 50%",
            share >= 0.5,
        )
    rate = voter_turns(args.turns, 6, rnd)
    chance = 1 / 5
    figure(
        "Computer voter vs people's phrases (card titles), 6 cards: found / chance",
        f"{rate / chance:.1f}x ({rate:.0%} vs {chance:.0%})",
        ">= 3x",
        rate / chance >= 3,
    )
    p95 = pct(all_times, 95) * 1000
    figure("Computer player's choice, CPU p95 (ms)", f"{p95:.1f}", "<= 50", p95 <= 50)


if __name__ == "__main__":
    main()
