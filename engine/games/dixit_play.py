"""How the demo's simulated group plays the Dixit family (engine/demo.py).

Play is plausible rather than uniform: each person has a skill at finding the storyteller's card, a
clarity as storyteller, a knack for bluffing and favourite people to fall for; picture cards have an
appeal of their own; storytellers sometimes type a phrase; the host now and then skips a voter who
went for coffee. The simulator plays every seat through the table `t`, so it knows who gave what.
"""

from __future__ import annotations

PHRASES = (
    "A quiet storm",
    "Before breakfast",
    "Lost keys",
    "Monday morning",
    "The long way home",
    "Whispers",
    "Too much coffee",
    "Hide and seek",
    "Summer never ends",
    "Upside down",
    "A promise",
    "Almost there",
    "Grandmother's kitchen",
    "Static",
    "The other side",
    "Deadline",
    "Echo",
    "First snow",
    "Out of tune",
    "Borrowed time",
)


def simulate(t) -> None:
    """Play one game of the Dixit family to its end through the table `t` (engine/demo.py)."""
    rng, owner_of = t.rng, {}
    fit: dict[str, float] = {}  # card -> how well it fits the phrase ("": the phrase's own)
    while not t.finished():
        shared = t.view()
        phase, waiting = shared["phase"], shared["waiting_for"]
        if phase == "claim":
            t.submit(rng.choice(waiting), {"type": "claim"}, 5, 40)
        elif phase == "tell":
            seat = shared["storyteller"]
            move = rng.choice(t.legal(seat))
            if rng.random() < 0.45:
                move["phrase"] = rng.choice(PHRASES)
            owner_of = {move["card"]: seat} if move.get("card") else {}
            fit = {}
            t.submit(seat, move, 20, 90)
        elif phase == "give":
            # One at a time: in Team the first member to give answers for the pair.
            seat = rng.choice(waiting)
            move = rng.choice(t.legal(seat))
            for card in move["cards"]:
                owner_of[card] = seat
            t.submit(seat, move, 5, 30)
        elif phase == "vote":
            _vote_round(t, shared, owner_of, fit)


def _card_appeal(card: str) -> float:
    """Some pictures pull votes whatever the phrase: a fixed appeal per card id."""
    return 0.5 + (hash_card(card) % 100) / 40


def hash_card(card: str) -> int:
    return sum((i + 1) * ord(c) for i, c in enumerate(card))


def _vote_round(t, shared: dict, owner_of: dict, fit: dict) -> None:
    rng = t.rng
    storyteller = shared["storyteller"]
    party = shared.get("variant") == "party"
    table = shared["table"]
    # Some clues are too obvious, some too obscure, most in between (then it is up to each voter).
    fit.setdefault("", rng.choices((0.93, 0.1, 0.0), (0.2, 0.15, 0.65))[0])
    for p in table:  # how well each card fits the phrase: shared by the whole table
        fit.setdefault(p["card"], rng.uniform(0.2, 1.5) * _card_appeal(p["card"]))
    waiting = list(shared["waiting_for"])
    if len(waiting) > 2 and rng.random() < 0.04:  # someone went for coffee: the host skips them
        gone = rng.choice(waiting)
        if t.skip(gone):
            waiting.remove(gone)
    teller = t.people[storyteller]
    for seat in waiting:
        moves = t.legal(seat)
        if not moves:
            continue
        votes = [m for m in moves if m["type"] == "vote"]
        me = t.people[seat]
        if votes:
            positions = sorted({m["positions"][0] if "positions" in m else m["position"] for m in votes})
            pick = _pick(rng, positions, table, owner_of, storyteller, me, teller, t.people, party, fit)
            single = [m for m in votes if (m.get("positions") or [m.get("position")]) == [pick]]
            move = single[0]
            doubles = [m for m in votes if len(m.get("positions", [])) == 2 and pick in m["positions"]]
            if doubles and rng.random() < 0.3:
                move = rng.choice(doubles)
            t.submit(seat, move, 5, 25)
        reds = [m for m in t.legal(seat) if m["type"] == "red_vote"]
        if reds:
            # The red card: the one the storyteller thinks fits the phrase worst, most of the time.
            worst = min(reds, key=lambda m: fit[table[m["position"] - 1]["card"]] * rng.uniform(0.6, 1.4))
            t.submit(seat, worst, 3, 15)


def _pick(rng, positions, table, owner_of, storyteller, me, teller, people, party, fit) -> int:
    card_at = {p["position"]: p["card"] for p in table}
    if party:
        weights = [fit[card_at[p]] ** 2 for p in positions]
        return rng.choices(positions, weights)[0]
    story = next((p for p in positions if owner_of.get(card_at[p]) == storyteller), None)
    p_find = fit[""] or min(0.92, max(0.05, me.skill * teller.clarity * 1.25 + rng.uniform(-0.15, 0.15)))
    if story is not None and rng.random() < p_find:
        return story
    decoys = [p for p in positions if p != story] or positions
    weights = []
    for p in decoys:
        owner = owner_of.get(card_at[p])
        person = people[owner] if owner is not None else None
        weights.append(fit[card_at[p]] * (person.bluff * me.likes.get(person.name, 1.0) if person else 1.0))
    return rng.choices(decoys, weights)[0]
