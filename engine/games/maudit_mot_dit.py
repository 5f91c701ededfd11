"""Maudit Mot Dit, 3 to 6 players: RULES.md §5. The box goes around the table twice, plus kept boxes.

Phases of a round: `choose` → `clues` → (`spell`) → `verdict`, then the next round, or `end`.
- `choose`: the box holder sees the word card (8 words keyed by SYMBOLS) and the back of the next
  card (two symbols, each with a clue count, and maybe an effect) and picks one of the two.
- `clues`: the holder gives one-word clues, one at a time, up to the count; after each clue the
  opponents answer on their phones (3–4 players: one answer each per clue; 5–6: three in all).
  An answer counts when it equals the word ignoring case, accents, apostrophes and spaces; a near
  miss (plural, typo, same root) is flagged for the holder, who may accept it. Once an answer to the
  latest clue counts, no more clues are given; the round closes when every answer to that clue is
  in, or when the holder closes it (their phone does so 3 s after the first right answer). With
  every clue given and nobody right, it closes the same way, unfound.
- `spell`: the card's spell effect, the word found: the holder gives a spell to an opponent.
- `verdict`: each opponent says whether a clue was unrelated to the word; a majority moves the
  curse to the holder (a holder who had it already loses every point so far, this round's too).

Moves: `choose` {symbol}, `clue` {text}, `answer` {text}, `accept` {index} (a near miss of the
latest clue), `close`, `slow` (opponents, any time in `choose`/`clues`: a majority gives the holder
a spell), `give_spell` {target}, `verdict` {unrelated}.

Scoring (the printed rule): found on exactly the count, the holder and each right guesser score
the count; found earlier, only the guessers score, the number of clues given; not found, nobody.
Final score = points − spells − 4 for the curse. Ties share the win.

App decisions beyond RULES.md: a clue is one word with no spaces (a compound or a name of several
words is joined with hyphens); the host may skip a holder (the round closes as it stands, or, before
the first clue, the turn passes: an entry with `"abandoned": true` and `chosen` null or as chosen)
or an opponent (who then does not answer this clue, or judges the clues fine), and remove a player
only between rounds. When the host ends the game mid-round, a round that changed the scores still
gets its entry (`_host_end`). The card backs are dealt from BACKS (documented there).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.core import rng
from engine.core.errors import AlreadyMoved, BadOptions, IllegalMove, NotYourTurn
from engine.core.game import REVEALED, SHARED, Game, playing, rules, score_winners
from engine.core.moves import Flag, Id, Maybe, Move, OneOf, SeatNo, Text, Whole
from engine.core.parts import Clock, Content, Host
from engine.games import maudit_audience, maudit_words as words

RULES_VERSION = "2"  # 2: a host's end mid-round writes the round that changed the scores
# Seconds the room watches a round once it is settled (after its spell and its verdict): the word,
# the clues that found it, the spells and the curse, the points.
REVEAL = 8
SYMBOLS = ("sun", "feather", "moon", "star", "key", "leaf", "drop", "flame")
LAPS = 2
SPELLS = 10
CURSE = 4
CLUE_MOST, ANSWER_MOST = 40, 40
MANY_PLAYERS = 5  # from 5 players, at most ANSWERS_MANY answers per clue in all
ANSWERS_MANY = 3
# The card backs, ten kinds dealt eleven times (110 cards). Each back offers a short word (1 or 2
# clues: easier, fewer points) and a long one (3 to 5: harder, more points), so every choice is a
# real bet; the sums of the two counts are spread evenly from 4 to 8. "keep_box" only makes sense
# with a one-clue word (RULES.md §5 (a)); three backs in ten carry a spell, two the kept box.
BACKS = (
    (1, 3, "keep_box"),
    (1, 4, None),
    (1, 5, "keep_box"),
    (2, 3, None),
    (2, 3, "spell"),
    (2, 4, None),
    (2, 4, "spell"),
    (2, 5, None),
    (1, 4, "spell"),
    (2, 5, None),
)


def content(options: dict, seats: int) -> list[dict]:
    """Our word cards in the room's language, or the host's own list (option `words`)."""
    from engine import words
    from engine.games import maudit_words

    try:
        if options.get("words"):
            return words.word_list(options["words"])
        return maudit_words.deck(options.get("language") or "en")
    except (ValueError, OSError, KeyError) as exc:
        raise BadOptions("The word cards for this game could not be read.") from exc


def setup(seats: int, options: dict, seed: int, cards: list) -> dict:
    if not isinstance(cards, list) or not cards:
        raise BadOptions("Maudit Mot Dit's content is a list of word cards; load it with content()")
    state: dict = {
        "game": "maudit_mot_dit",
        "rules_version": RULES_VERSION,
        "options": dict(options),
        "players": seats,
        "rng": rng.new(seed),
        "phase": "choose",
        "out": [],
        "scores": [0] * seats,
        "history": [],
        "points": [0] * seats,
        "spells": [0] * seats,
        "spells_left": SPELLS,
        "curse": None,
        "schedule": list(range(seats)) * LAPS,
        "box_turn": 0,
        "kept": 0,
        "round": 0,
        "deck": [json.dumps({"id": c["id"], "words": list(c["words"])}, ensure_ascii=False) for c in cards],
    }
    rng.draw(state).shuffle(state["deck"])
    backs = []
    for short, long, effect in BACKS * (len(cards) // len(BACKS) + 1):
        pair = rng.draw(state).sample(SYMBOLS, 2)
        backs.append({"symbols": pair, "counts": [short, long], "effect": effect})
    rng.draw(state).shuffle(backs)
    state["backs"] = backs
    _start_round(state, state["schedule"][0])
    return state


def _start_round(state: dict, holder: int) -> None:
    card = json.loads(state["deck"].pop(0))
    back = state["backs"].pop(0)
    state.update(
        round=state["round"] + 1,
        holder=holder,
        phase="choose",
        card=card,
        back=back,
        chosen=None,
        clues=[],
        found=False,
        slow_votes=[],
        slow_spells=[],
        verdicts={},
        result=None,
    )


# ---- who may do what ---------------------------------------------------------------------------


def opponents(state: dict) -> list[int]:
    return [s for s in playing(state) if s != state["holder"]]


def _limit(state: dict) -> int | None:
    """Answers per clue in all (5–6 players), or None: one each."""
    return ANSWERS_MANY if state["players"] >= MANY_PLAYERS else None


def _latest(state: dict) -> dict | None:
    return state["clues"][-1] if state["clues"] else None


def _open_clue(state: dict) -> dict:
    """The latest clue, where the phase and the moves so far say there is one."""
    return state["clues"][-1]


def _may_answer(state: dict) -> list[int]:
    clue = _latest(state)
    if state["phase"] != "clues" or clue is None:
        return []
    limit = _limit(state)
    if limit is not None and len(clue["answers"]) >= limit:
        return []
    done = {a["seat"] for a in clue["answers"]} | set(clue["passed"])
    return [s for s in opponents(state) if s not in done]


def _can_clue(state: dict) -> bool:
    return not state["found"] and len(state["clues"]) < state["chosen"]["count"]


def _can_close(state: dict) -> bool:
    return bool(state["clues"]) and not _can_clue(state)


def waiting_for(state: dict) -> list[int]:
    phase = state["phase"]
    if phase in ("choose", "spell"):
        return [state["holder"]]
    if phase == "clues":
        return sorted({state["holder"], *_may_answer(state)})
    if phase == "verdict":
        return [s for s in opponents(state) if str(s) not in state["verdicts"]]
    return []


def legal(state: dict, seat: int) -> list[dict]:
    phase, holder = state["phase"], state["holder"]
    if seat not in playing(state) or phase == "end":
        return []
    moves = []
    if phase in ("choose", "clues") and seat != holder and seat not in state["slow_votes"]:
        moves.append({"type": "slow", "seat": seat})
    if phase == "choose" and seat == holder:
        moves += [{"type": "choose", "seat": seat, "symbol": s} for s in state["back"]["symbols"]]
    elif phase == "clues" and seat == holder:
        if _can_clue(state):
            moves.append({"type": "clue", "seat": seat, "text": None})
        if _can_close(state):
            moves.append({"type": "close", "seat": seat})
        clue = _latest(state)
        for i, answer in enumerate(clue["answers"] if clue else []):
            if answer["near"] and not answer["correct"]:
                moves.append({"type": "accept", "seat": seat, "index": i})
    elif phase == "clues" and seat in _may_answer(state):
        moves.append({"type": "answer", "seat": seat, "text": None})
    elif phase == "spell" and seat == holder:
        moves += [{"type": "give_spell", "seat": seat, "target": t} for t in opponents(state)]
    elif phase == "verdict" and seat in waiting_for(state):
        moves += [
            {"type": "verdict", "seat": seat, "unrelated": False},
            {"type": "verdict", "seat": seat, "unrelated": True},
        ]
    return moves


# ---- fields ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clue(Text):
    """One word: a compound or a name of several words is joined with hyphens."""

    def sample(self, rnd):
        return rnd.choice(("sea", "Astrologia", "scales", "río", "l'acqua", "sud-est", "Nemo"))

    def check(self, value, state, name):
        clean = super().check(value, state, name)
        if clean is not None and " " in clean:
            raise IllegalMove(
                "A clue is one word: no spaces. Join a compound or a name with hyphens (sud-est, New-York).", field=name
            )
        return clean


@dataclass(frozen=True)
class Answer(Text):
    def sample_for(self, state, rnd):
        card = state.get("card") or {}
        chosen = state.get("chosen") or {}
        roll = rnd.random()
        if roll < 0.25 and chosen:  # now and then the word itself, in another case or with accents off
            secret = chosen["word"]
            return rnd.choice((secret, secret.upper(), f" {words.plain(secret)} ", secret + "s"))
        if roll < 0.45 and card.get("words"):
            return rnd.choice(card["words"])
        return self.sample(rnd)


# ---- moves -------------------------------------------------------------------------------------


def _choose(state: dict, move: dict) -> None:
    if move["seat"] != state["holder"]:
        raise NotYourTurn("Only the box holder chooses the word.")
    back = state["back"]
    if move["symbol"] not in back["symbols"]:
        raise IllegalMove("Choose one of the two symbols on the back of the next card.")
    i = back["symbols"].index(move["symbol"])
    state["chosen"] = {
        "symbol": move["symbol"],
        "word": state["card"]["words"][SYMBOLS.index(move["symbol"])],
        "count": back["counts"][i],
    }
    state["phase"] = "clues"


def _clue(state: dict, move: dict) -> None:
    if move["seat"] != state["holder"]:
        raise NotYourTurn("Only the box holder gives clues.")
    if state["found"]:
        raise IllegalMove("Your word has been found: no more clues.")
    if len(state["clues"]) >= state["chosen"]["count"]:
        raise IllegalMove("You have given every clue you chose: {count}.", count=state["chosen"]["count"])
    state["clues"].append({"clue": move["text"], "answers": [], "passed": []})


def _answer(state: dict, move: dict) -> None:
    seat, clue = move["seat"], _latest(state)
    if seat == state["holder"]:
        raise IllegalMove("You hold the box: the others answer.")
    if clue is None:
        raise IllegalMove("Wait for the first clue.")
    if any(a["seat"] == seat for a in clue["answers"]) or seat in clue["passed"]:
        raise AlreadyMoved("You have already answered this clue. Wait for the next one.")
    if seat not in _may_answer(state):
        raise IllegalMove("Three answers are already in for this clue. Wait for the next one.")
    secret = state["chosen"]["word"]
    right = words.matches(move["text"], secret)
    near = not right and words.near_miss(move["text"], secret, state["options"].get("language") or "en")
    clue["answers"].append({"seat": seat, "answer": move["text"], "correct": right, "near": near})
    state["found"] = state["found"] or right
    _close_if_done(state)


def _accept(state: dict, move: dict) -> None:
    if move["seat"] != state["holder"]:
        raise NotYourTurn("Only the box holder can accept an answer.")
    clue = _latest(state)
    answers = clue["answers"] if clue else []
    if move["index"] >= len(answers) or not answers[move["index"]]["near"] or answers[move["index"]]["correct"]:
        raise IllegalMove("That answer is not a near miss of the latest clue.")
    answers[move["index"]].update(correct=True, accepted=True)
    state["found"] = True
    _close_if_done(state)


def _close(state: dict, move: dict) -> None:
    if move["seat"] != state["holder"]:
        raise NotYourTurn("Only the box holder closes the round.")
    if not _can_close(state):
        raise IllegalMove("Give your next clue: the round closes once the word is found or every clue is given.")
    _close_round(state)


def _close_if_done(state: dict) -> None:
    if _can_close(state) and not _may_answer(state):
        _close_round(state)


def _slow(state: dict, move: dict) -> None:
    if move["seat"] == state["holder"]:
        raise IllegalMove("You hold the box: only the others can say you are too slow.")
    state["slow_votes"].append(move["seat"])
    if len(state["slow_votes"]) * 2 > len(opponents(state)):
        state["slow_votes"] = []
        if state["spells_left"] > 0:
            _spell(state, state["holder"])
            state["slow_spells"].append(state["holder"])


def _spell(state: dict, seat: int) -> None:
    state["spells_left"] -= 1
    state["spells"][seat] += 1
    _net(state)


def _give_spell(state: dict, move: dict) -> None:
    if move["seat"] != state["holder"]:
        raise NotYourTurn("Only the box holder gives the spell.")
    if move["target"] not in opponents(state):
        raise IllegalMove("Give the spell to one of your opponents.")
    _spell(state, move["target"])
    state["result"]["spell_to"] = move["target"]
    state["phase"] = "verdict"


def _verdict(state: dict, move: dict) -> None:
    if move["seat"] == state["holder"]:
        raise IllegalMove("You hold the box: the others judge your clues.")
    if str(move["seat"]) in state["verdicts"]:
        raise AlreadyMoved("You have already judged the clues.")
    state["verdicts"][str(move["seat"])] = move["unrelated"]
    _end_round_if_judged(state)


# ---- closing a round ---------------------------------------------------------------------------


def round_scores(record: dict) -> dict:
    """A round's points from its record alone (RULES.md §5, the printed rule)."""
    scores = {str(s): 0 for s in record["scores"]} if "scores" in record else {}
    found, count = record["guessed_on"], record["chosen"]["count"]
    if found is None:
        return scores
    for seat in record["guessers"]:
        scores[str(seat)] = scores.get(str(seat), 0) + (count if found == count else found)
    if found == count:
        scores[str(record["box_holder"])] = scores.get(str(record["box_holder"]), 0) + count
    return scores


def _close_round(state: dict) -> None:
    guessers = sorted(a["seat"] for a in _open_clue(state)["answers"] if a["correct"]) if state["found"] else []
    back, chosen = state["back"], state["chosen"]
    result = {
        "box_holder": state["holder"],
        "choices": [
            {"symbol": s, "word": state["card"]["words"][SYMBOLS.index(s)], "count": c}
            for s, c in zip(back["symbols"], back["counts"], strict=True)
        ],
        "chosen": {"word": chosen["word"], "count": chosen["count"]},
        "effect": back["effect"],
        "clues": [
            {
                "clue": c["clue"],
                "answers": [{"seat": a["seat"], "answer": a["answer"], "correct": a["correct"]} for a in c["answers"]],
            }
            for c in state["clues"]
        ],
        "guessed_on": len(state["clues"]) if guessers else None,
        "guessers": guessers,
        "spell_to": None,
        "slow_spells": state["slow_spells"],
        "curse_to": None,
        "curse_wipe": False,
        "card_id": state["card"]["id"],
        "symbol": chosen["symbol"],
    }
    result["scores"] = {str(s): 0 for s in range(state["players"])}
    result["scores"] = round_scores(result)
    for seat, points in result["scores"].items():
        state["points"][int(seat)] += points
    _net(state)
    state["result"] = result
    state["keep_box"] = back["effect"] == "keep_box" and chosen["count"] == 1 and result["guessed_on"] == 1
    if back["effect"] == "spell" and guessers and state["spells_left"] > 0:
        state["phase"] = "spell"
    else:
        state["phase"] = "verdict"


def _end_round_if_judged(state: dict) -> None:
    if waiting_for(state):
        return
    result, holder = state["result"], state["holder"]
    unrelated = sum(1 for v in state["verdicts"].values() if v)
    if unrelated * 2 > len(opponents(state)):
        result["curse_to"] = holder
        if state["curse"] == holder:
            result["curse_wipe"] = True
            state["points"][holder] = 0
        state["curse"] = holder
    _net(state)
    state["history"].append(result)
    _next_round(state, keep=state.pop("keep_box", False))


def _next_round(state: dict, keep: bool) -> None:
    holder = state["holder"]
    if keep and holder in playing(state):
        state["kept"] += 1
    else:
        state["box_turn"] += 1
        while state["box_turn"] < len(state["schedule"]) and state["schedule"][state["box_turn"]] not in playing(state):
            state["box_turn"] += 1
        if state["box_turn"] >= len(state["schedule"]):
            state.update(phase="end", result=None)
            return
        holder = state["schedule"][state["box_turn"]]
    if not state["deck"] or not state["backs"]:
        state.update(phase="end", result=None)
        return
    _start_round(state, holder)


def _net(state: dict) -> None:
    """Scores as they stand: points − spells − 4 for the curse."""
    state["scores"] = [
        p - sp - (CURSE if state["curse"] == s else 0)
        for s, (p, sp) in enumerate(zip(state["points"], state["spells"], strict=True))
    ]


# ---- host --------------------------------------------------------------------------------------


def _skip(state: dict, target: int) -> None:
    phase = state["phase"]
    if phase == "choose" or (phase == "clues" and target == state["holder"] and not state["clues"]):
        _abandon(state)  # the holder's turn passes without a round
    elif phase == "clues" and target == state["holder"]:
        _close_round(state)
    elif phase == "clues":
        _open_clue(state)["passed"].append(target)
        _close_if_done(state)
    elif phase == "spell":
        _give_spell(state, {"seat": state["holder"], "target": rng.draw(state).choice(opponents(state))})
    else:
        state["verdicts"][str(target)] = False
        _end_round_if_judged(state)


def _kick(state: dict, target: int) -> None:
    if state["phase"] != "choose" or len(playing(state)) <= 3:
        raise IllegalMove("A player can leave only between rounds, and three must stay.")
    state["out"].append(target)
    if target in state["slow_votes"]:  # a vote of someone who left no longer counts
        state["slow_votes"].remove(target)
    if target == state["holder"]:
        _abandon(state)


def _abandon(state: dict) -> None:
    """The holder's turn passes without a round (skipped, or gone)."""
    state["history"].append(_abandoned(state))
    _next_round(state, keep=False)


def _abandoned(state: dict) -> dict:
    """The entry of a round that never closed. It keeps the spells taken for slowness meanwhile,
    so the final scores still follow from the record."""
    back, chosen = state["back"], state["chosen"]
    return {
        "box_holder": state["holder"],
        "choices": [
            {"symbol": s, "word": state["card"]["words"][SYMBOLS.index(s)], "count": c}
            for s, c in zip(back["symbols"], back["counts"], strict=True)
        ],
        "chosen": {"word": chosen["word"], "count": chosen["count"]} if chosen else None,
        "effect": back["effect"],
        "clues": [],
        "guessed_on": None,
        "guessers": [],
        "spell_to": None,
        "slow_spells": state["slow_spells"],
        "curse_to": None,
        "curse_wipe": False,
        "scores": {str(s): 0 for s in range(state["players"])},
        "card_id": state["card"]["id"],
        "symbol": chosen["symbol"] if chosen else None,
        "abandoned": True,
    }


def _host_end(state: dict) -> None:
    """The host ends the game mid-round (App decision): a round already closed (its points and any
    spell given, the verdict cut short) goes into the history as it stands; a round still open
    goes in as abandoned if spells were taken for slowness in it; otherwise it leaves no entry."""
    if state["phase"] in ("spell", "verdict") and state.get("result"):
        state["history"].append(state["result"])
    elif state["phase"] in ("choose", "clues") and state["slow_spells"]:
        state["history"].append(_abandoned(state))


def skippable(state: dict) -> list[int]:
    if state["phase"] == "clues":
        return sorted({state["holder"], *_may_answer(state)})
    return waiting_for(state)


# ---- views -------------------------------------------------------------------------------------


def view(state: dict, viewer) -> dict:
    phase = state["phase"]
    clue = _latest(state)
    public = {
        "round": state["round"],
        "holder": state["holder"] if phase != "end" else None,
        "turn": min(state["box_turn"] + 1, len(state["schedule"])),
        "turns": len(state["schedule"]),
        "kept": state["kept"],
        "clues": [
            {
                "clue": c["clue"],
                "answers": [{"seat": a["seat"], "answer": a["answer"], "correct": a["correct"]} for a in c["answers"]],
            }
            for c in state["clues"]
        ],
        "found": state["found"],
        "may_answer": _may_answer(state),
        "answers_left": (ANSWERS_MANY - len(clue["answers"])) if clue and _limit(state) else None,
        "points": list(state["points"]),
        "spells": list(state["spells"]),
        "spells_left": state["spells_left"],
        "curse": state["curse"],
        "slow_votes": len(state["slow_votes"]),
        "judged": sorted(int(s) for s in state["verdicts"]),
        "result": state["result"],
        "history": state["history"],
        "last": state["history"][-1] if state["history"] else None,
        "limit": _limit(state),
    }
    if viewer == REVEALED:
        return {**public, **{k: v for k, v in state.items() if k not in ("rng", "deck", "backs")}, "rng": None}
    if viewer == SHARED:
        return public
    seat = int(viewer)
    mine = {"slow_voted": seat in state["slow_votes"], "my_verdict": state["verdicts"].get(str(seat))}
    if seat == state["holder"] and phase in ("choose", "clues"):
        back = state["back"]
        mine.update(
            card=[{"symbol": s, "word": w} for s, w in zip(SYMBOLS, state["card"]["words"], strict=False)],
            back=[{"symbol": s, "count": c} for s, c in zip(back["symbols"], back["counts"], strict=True)],
            effect=back["effect"],
            chosen=state["chosen"],
            can_clue=phase == "clues" and _can_clue(state),
            can_close=phase == "clues" and _can_close(state),
            near=[i for i, a in enumerate(clue["answers"]) if a["near"] and not a["correct"]] if clue else [],
        )
    else:
        mine["answered"] = any(a["seat"] == seat for a in clue["answers"]) if clue else False
    return {**public, **mine}


def outcome(state: dict) -> dict | None:
    if state["phase"] != "end":
        return None
    scores = {str(s): p for s, p in enumerate(state["scores"])}
    return {
        "final_scores": scores,
        "winners": score_winners(scores),
        "record": {"points": list(state["points"]), "spells": list(state["spells"]), "curse": state["curse"]},
    }


def secrets(state: dict, seat: int) -> set:
    """The holder's word card while they hold it, but the words someone has already said aloud."""
    if seat != state["holder"] or state["phase"] not in ("choose", "clues"):
        return set()
    said = {c["clue"] for c in state["clues"]} | {a["answer"] for c in state["clues"] for a in c["answers"]}
    return set(state["card"]["words"]) - said


def alternative(state: dict, seat: int, rnd) -> dict | None:
    """Another word card (the same one shuffled), or another secret word that no answer is near."""
    if seat != state["holder"] or state["phase"] not in ("choose", "clues"):
        return None
    other = json.loads(json.dumps(state))
    if other["phase"] == "choose":
        rnd.shuffle(other["card"]["words"])
        return other
    language = other["options"].get("language") or "en"
    said = [a["answer"] for c in other["clues"] for a in c["answers"]] + [c["clue"] for c in other["clues"]]
    free = [
        w
        for w in other["card"]["words"]
        if w != other["chosen"]["word"]
        and not any(words.matches(a, w) or words.near_miss(a, w, language) for a in said)
    ]
    if not free or other["found"]:
        return None
    other["chosen"]["word"] = rnd.choice(free)
    return other


def _clue_warnings(clue: str, view: dict, language: str) -> list[str]:
    """For the holder's phone, before a clue is sent: "root" and/or "repeat" (a warning only)."""
    chosen = view.get("chosen") or {}
    return words.clue_warnings(clue, chosen.get("word", ""), [c["clue"] for c in view.get("clues", [])], language)


def _phase_move(kind, phases, apply, fields=None, **kw) -> Move:
    return Move(kind, phases, apply, fields or {}, waits=False, **kw)


MOVES = (
    _phase_move("choose", ("choose",), _choose, {"symbol": OneOf(SYMBOLS)}, not_now="The word has been chosen."),
    _phase_move(
        "clue",
        ("clues",),
        _clue,
        {"text": Clue(CLUE_MOST, optional=False, empty="Type a clue first.")},
        not_now="Clues can be given only while the round is on.",
    ),
    _phase_move(
        "answer",
        ("clues",),
        _answer,
        {
            "text": Answer(
                ANSWER_MOST,
                optional=False,
                empty="Type an answer first.",
                too_long="An answer is at most {most} characters.",
            )
        },
        not_now="The round is over: answers are closed.",
    ),
    _phase_move("accept", ("clues",), _accept, {"index": Whole(0, 8)}, not_now="The round is over."),
    _phase_move("close", ("clues",), _close, not_now="The round is already closed."),
    _phase_move(
        "slow",
        ("choose", "clues"),
        _slow,
        done=lambda state, seat: seat in state["slow_votes"],
        done_message="You have already said the box holder is too slow.",
        not_now="You can say that only while someone holds the box.",
    ),
    _phase_move("give_spell", ("spell",), _give_spell, {"target": SeatNo()}, not_now="There is no spell to give now."),
    _phase_move(
        "verdict", ("verdict",), _verdict, {"unrelated": Flag()}, not_now="The clues are judged at the end of a round."
    ),
)


GAME = Game(
    name="maudit_mot_dit",
    title="Maudit Mot Dit",
    min_players=3,
    max_players=6,
    rules_version=RULES_VERSION,
    options={"words": Maybe(Id(), default=None)},
    **rules(globals()),
    turn_word="round",
    host=Host(skippable=skippable, skip=_skip, kick=_kick, end=_host_end),
    audience=maudit_audience.AUDIENCE,
    clock=Clock(
        {"choose": (45, 25), "clues": (90, 45), "verdict": (30, 20), "spell": (30, 15)},
        moment=lambda state: len(state["clues"]),  # each clue gives the table a fresh deadline
        reveal=REVEAL,
    ),
    variants=({},),
    family="maudit_mot_dit",
    content=Content(
        cards=content,
        constants={
            "symbols": SYMBOLS,
            "backs": BACKS,
            "spells": SPELLS,
            "curse": CURSE,
            "clue_most": CLUE_MOST,
            "answer_most": ANSWER_MOST,
            "clue_warnings": _clue_warnings,
        },
    ),
)
