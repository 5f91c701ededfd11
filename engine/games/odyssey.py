"""Dixit Odyssey, 3 to 12 players, variants `base`, `party` and `team`: RULES.md §2.

Phases: `claim` (turn 1 only: the first "I have a phrase" wins) → `tell` → `give` → `vote`; when the
last vote is in, the turn is scored and recorded, the played cards are discarded, the hands refill
(the discard pile is reshuffled into a new draw pile when the draw pile runs out) and the next seat
clockwise tells. The game ends (`end`):
- base: at the end of the turn in which a player reaches 30 points;
- party, team: at the end of the turn after which every seat still playing has told `laps` times.

Moves (each also carries `"seat"`):
- `{"type": "claim"}`: "I have a phrase" (turn 1, every variant).
- `{"type": "tell", "card": "dream-017", "phrase": None | "text"}`: base and team. In Party the phrase
  is tied to no card: `{"type": "tell", "phrase": None | "text"}`. The typed phrase is optional.
- `{"type": "give", "cards": ["dream-003"]}`: two cards from each non-storyteller with 3 players.
- `{"type": "vote", "positions": [p]}`, or `[p, q]` (two different cards) in base with 7+ players.
  Never one's own card, except in Party. In Party this is the green vote, storyteller included.
- `{"type": "red_vote", "position": p}`: Party, the storyteller only, any card on the table.
Host (`"seat": None`): `{"type": "skip", "target": s}`, `{"type": "kick", "target": s}`, `{"type": "end"}`.

App decisions (where the printed rules are silent):
- Party: the phrase comes before the storyteller looks at their new hand. So a Party seat view hides
  the hand (`"hand": []`, `"hand_hidden": true`) from the storyteller during `tell`, and from
  everyone during the first turn's `claim`, when nobody has looked at their cards yet.
- Party: the storyteller's red vote may go on any card, their own and their own green card included.
  "Anyone who voted the red card scores 0" includes the storyteller's own green vote.
- Party: at the end of the turn the hands of the seats still playing pass to the next seat still
  playing clockwise; a kicked seat's hand stays where it is.
- Team: the team of seat s is s mod (players / 2), so teammates sit opposite. Within a team that
  is not the storyteller's, the first member to submit `give` gives the team's card; the other
  member is then the team's voter. A second `give` from that team is refused (AlreadyMoved).
  A voter may vote for any card, their teammate's too, because they do not know which it is; that
  vote scores for its owner's team as any other.
- Team: seat points are computed as in the base game (no 7+ rules), and a team scores the sum of
  its members' points: the storyteller's points plus the vote points on the teammate's card.
  Both members carry the team's points in `scores`.
- Team: a player whose teammate has left gives the team's card every turn; that team has no voter.
- The laps count storyteller turns per seat; a storyteller who is skipped has had their turn.
- Deck size: a deck must cover the deal and two turns (as in classic Dixit) or hold the box's 84
  cards: base with 11 or 12 players deals all but one turn's worth of the 84, then reshuffles.

Skipping a player who went away (host; never leaves a phase waiting for nobody):
- a skipped storyteller (`tell`) has had their turn: the next seat still playing tells instead,
  or the game ends when that completes the last lap;
- a seat skipped in `give` sits the turn out: no card, no vote, no points from this turn (in Team,
  the teammate must then give the team's card; if both are skipped the team sits the turn out);
- a seat skipped in `vote` casts no (more) votes; votes already cast stand, and the votes on its
  own card still score. In Party a storyteller skipped before placing the red vote leaves the turn
  without a red card;
- a turn in which nobody votes scores nothing.
Kick: the seat leaves for good (its hand stays put, it never tells again) and whatever the table
waited on from it is dropped as by a skip. At least 3 seats must stay in play.

A turn record (DESIGN.md, Dixit family): `{"turn", "storyteller", "phrase", "table": [{"position",
"card", "owner"}], "votes": {"seat": [positions]}, "red_vote": position | None, "scores": {"seat":
points}}` and, in Team, `"team_scores": {"team": points}`. Scores follow from the record alone.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from engine.core import rng
from engine.core.errors import BadOptions, IllegalMove, NotYourTurn
from engine.core.game import REVEALED, SHARED, Game, rules, score_winners
from engine.core.moves import Maybe, Move, OneOf, Whole
from engine.core.parts import Bots, Clock, Content, Demo, Host
from engine.games import dixit_bot, dixit_family as family, dixit_play as family_play
from engine.games.dixit_family import (
    CARD,
    GAME_CARDS,
    PHRASE,
    active as _active,
    cards_field,
    check_position,
    next_seat as _next_seat,
    own_positions as _own_positions,
    picture_cards,
    position_field,
    positions_field,
)

RULES_VERSION = "1"
OPTIONS = {"variant": "base", "laps": 1, "deck": "dreams", "language": "en"}
VARIANTS = ("base", "party", "team")
MAX_LAPS = 5
WINNING_POINTS = 30
CARD_VOTES_CAP = 3  # points for votes on one's own card(s), per turn
PARTY_CAP = 5  # points for a crowd on one card in Party
HAND = {"party": 5, "team": 4}


# ---- options and content -----------------------------------------------------------------------


def check_options(options: dict, seats: int) -> None:
    variant, laps = options.get("variant", "base"), options.get("laps", 1)
    if variant not in VARIANTS:
        raise BadOptions("Dixit Odyssey has no such variant: choose Base, Party or Team.")
    if isinstance(laps, bool) or not isinstance(laps, int) or not 1 <= laps <= MAX_LAPS:
        raise BadOptions("The laps are a whole number from 1 to {most}.", most=MAX_LAPS)
    if not 3 <= seats <= 12:
        raise BadOptions("Dixit Odyssey is for 3 to 12 players, not {count}.", count=seats)
    if variant == "party" and seats < 6:
        raise BadOptions("Dixit Party is for 6 to 12 players; {count} are seated.", count=seats)
    if variant == "team" and seats not in (6, 8, 10, 12):
        raise BadOptions("Team Dixit is for 6, 8, 10 or 12 players in pairs; {count} are seated.", count=seats)


def hand_size(variant: str, seats: int) -> int:
    return HAND.get(variant, 7 if seats == 3 else 6)


def gives_per_player(variant: str, seats: int) -> int:
    return 2 if variant == "base" and seats == 3 else 1


def double_votes(variant: str, seats: int) -> bool:
    """7+ players in the base game: one or two votes per voter, +1 for a single vote that found it."""
    return variant == "base" and seats >= 7


def min_cards(variant: str, seats: int) -> int:
    """The deal plus two turns' worth of cards (RULES.md §1, App decision on small decks), but never
    more than the box's 84: with 11 or 12 players the printed game itself deals all but one turn's
    worth, and the discards are reshuffled from the first refill on."""
    per_turn = {"party": seats, "team": seats // 2 + 1}.get(variant, 1 + (seats - 1) * gives_per_player(variant, seats))
    return min(seats * hand_size(variant, seats) + 2 * per_turn, GAME_CARDS)


def content(options: dict, seats: int) -> list[str]:
    check_options(options, seats)
    return picture_cards(options, seats, min_cards(options.get("variant", "base"), seats))


def team_of(seat: int, seats: int) -> int:
    return seat % (seats // 2)


def teammate(seat: int, seats: int) -> int:
    return (seat + seats // 2) % seats


def setup(seats: int, options: dict, seed: int, cards: list[str]) -> dict:
    options = {**OPTIONS, **options}
    check_options(options, seats)
    variant = options["variant"]
    state = {
        "game": "odyssey",
        "rules_version": RULES_VERSION,
        "options": options,
        "players": seats,
        "rng": rng.new(seed),
        "phase": "claim",
        "turn": 1,
        "storyteller": None,
        "phrase": None,
        "story_card": None,
        "given": {},
        "table": [],
        "votes": {},
        "red_vote": None,
        "sitting_out": [],
        "out": [],
        "tells": [0] * seats,
        "scores": [0] * seats,
        "history": [],
        "discard": [],
    }
    if variant == "team":
        state["team_scores"] = [0] * (seats // 2)
    pool = sorted(cards)
    rng.draw(state).shuffle(pool)
    pool = pool[:GAME_CARDS]
    size = hand_size(variant, seats)
    state["hands"] = [pool[i * size : (i + 1) * size] for i in range(seats)]
    state["deck"] = pool[seats * size :]
    return state


# ---- who does what now -------------------------------------------------------------------------


def _variant(state: dict) -> str:
    return state["options"]["variant"]


def _in_turn(state: dict) -> list[int]:
    """Seats still playing that do not sit this turn out."""
    return [s for s in _active(state) if s not in state["sitting_out"]]


def _owes_card(state: dict, seat: int) -> bool:
    """Whether a seat that takes part in this turn still has to give."""
    variant, given = _variant(state), state["given"]
    if str(seat) in given:
        return False
    if variant == "party":
        return True
    if seat == state["storyteller"]:
        return False
    return variant == "base" or str(teammate(seat, state["players"])) not in given


def voters(state: dict) -> list[int]:
    """Who votes this turn: base, everyone who gave; Party, everyone who gave (storyteller included);
    Team, the member of each other team who did not give its card."""
    variant, given, storyteller, seats = _variant(state), state["given"], state["storyteller"], state["players"]
    if variant == "team":
        return [
            s
            for s in _in_turn(state)
            if team_of(s, seats) != team_of(storyteller, seats)
            and str(s) not in given
            and str(teammate(s, seats)) in given
        ]
    return [s for s in _in_turn(state) if str(s) in given]


def _owes_red_vote(state: dict, seat: int) -> bool:
    return (
        _variant(state) == "party"
        and seat == state["storyteller"]
        and state["red_vote"] is None
        and seat in voters(state)
    )


def waiting_for(state: dict) -> list[int]:
    phase = state["phase"]
    if phase == "claim":
        return _active(state)
    if phase == "tell":
        return [state["storyteller"]]
    if phase == "give":
        return [s for s in _in_turn(state) if _owes_card(state, s)]
    if phase == "vote":
        return [s for s in voters(state) if str(s) not in state["votes"] or _owes_red_vote(state, s)]
    return []


def legal(state: dict, seat: int) -> list[dict]:
    if seat not in waiting_for(state):
        return []
    phase, variant, seats = state["phase"], _variant(state), state["players"]
    if phase == "claim":
        return [{"type": "claim", "seat": seat}]
    hand = sorted(state["hands"][seat])
    if phase == "tell":
        if variant == "party":
            return [{"type": "tell", "seat": seat, "phrase": None}]
        return [{"type": "tell", "seat": seat, "card": card, "phrase": None} for card in hand]
    if phase == "give":
        k = gives_per_player(variant, seats)
        return [{"type": "give", "seat": seat, "cards": list(c)} for c in combinations(hand, k)]
    moves = []
    if str(seat) not in state["votes"]:
        own = set() if variant == "party" else _own_positions(state, seat)
        open_ = [p["position"] for p in state["table"] if p["position"] not in own]
        picks = [[p] for p in open_]
        if double_votes(variant, seats):
            picks += [list(pair) for pair in combinations(open_, 2)]
        moves += [{"type": "vote", "seat": seat, "positions": pick} for pick in picks]
    if _owes_red_vote(state, seat):
        moves += [{"type": "red_vote", "seat": seat, "position": p["position"]} for p in state["table"]]
    return moves


# ---- moves -------------------------------------------------------------------------------------


def _claim(state: dict, move: dict) -> None:
    state["storyteller"] = move["seat"]
    state["phase"] = "tell"


def _tell(state: dict, move: dict) -> None:
    seat, card = move["seat"], move.get("card")
    party = _variant(state) == "party"
    if party and card is not None:
        raise IllegalMove("In Party the phrase goes with no card: tell it without choosing one.")
    if not party and card is None:
        raise IllegalMove("Choose the card that goes with your phrase.")
    if not party and card not in state["hands"][seat]:
        raise IllegalMove("That card is not in your hand.")
    if not party:
        state["hands"][seat].remove(card)
        state["story_card"] = card
    state["phrase"], state["phase"] = move["phrase"], "give"


def _give(state: dict, move: dict) -> None:
    seat, cards = move["seat"], move["cards"]
    if any(card not in state["hands"][seat] for card in cards):
        raise IllegalMove("That card is not in your hand.")
    for card in cards:
        state["hands"][seat].remove(card)
    state["given"][str(seat)] = list(cards)
    _advance(state)


def _vote(state: dict, move: dict) -> None:
    seat, positions, variant = move["seat"], move["positions"], _variant(state)
    if len(positions) > 1 and not double_votes(variant, state["players"]):
        raise IllegalMove("You may vote for one card only: two votes are for tables of 7 or more.")
    for position in positions:
        check_position(state, position)
    if variant != "party" and set(positions) & _own_positions(state, seat):
        raise IllegalMove("You cannot vote for your own card.")
    state["votes"][str(seat)] = sorted(positions)
    _advance(state)


def _red_vote(state: dict, move: dict) -> None:
    if move["seat"] != state["storyteller"]:
        raise NotYourTurn("Only the storyteller places the red vote.")
    check_position(state, move["position"])
    state["red_vote"] = move["position"]
    _advance(state)


def _gave(state: dict, seat: int) -> bool | str:
    """This seat gave, or (Team) its teammate already gave the team's card."""
    if str(seat) in state["given"]:
        return True
    if (
        _variant(state) == "team"
        and seat != state["storyteller"]
        and str(teammate(seat, state["players"])) in state["given"]
    ):
        return "Your teammate has already given your team's card."
    return False


def skippable(state: dict) -> list[int]:
    """Anyone the table waits on, except in turn 1's claim, where nobody has to wait."""
    return [] if state["phase"] == "claim" else waiting_for(state)


def _skip(state: dict, target: int) -> None:
    if state["phase"] == "tell":
        _pass_tell(state, target)
    else:
        state["sitting_out"].append(target)
        _advance(state)


def _kick(state: dict, target: int) -> None:
    if len(_active(state)) <= 3:
        raise IllegalMove("Dixit Odyssey needs three players: end the game instead.")
    # Out first: whatever the table waited on from this seat is no longer awaited.
    state["out"].append(target)
    if state["phase"] == "tell" and state["storyteller"] == target:
        _pass_tell(state, target)
    _advance(state)


def _party(state: dict) -> bool:
    return _variant(state) == "party"


MOVES = (
    Move("claim", ("claim",), _claim, not_now="Someone already has a phrase: the storyteller is choosing."),
    Move(
        "tell",
        ("tell",),
        _tell,
        {"card": Maybe(CARD), "phrase": PHRASE},
        not_now="The storyteller has already told this turn.",
    ),
    Move(
        "give",
        ("give",),
        _give,
        {"cards": cards_field(lambda state: gives_per_player(_variant(state), state["players"]))},
        done=_gave,
        done_message="Your card for this turn has already been given.",
        not_now="Cards are given right after the storyteller tells.",
    ),
    Move(
        "vote",
        ("vote",),
        _vote,
        {"positions": positions_field(2)},
        done=lambda state, seat: str(seat) in state["votes"],
        done_message="You have already voted this turn.",
        not_now="Votes open when every card is on the table.",
    ),
    Move(
        "red_vote",
        ("vote",),
        _red_vote,
        {"position": position_field()},
        allowed=_party,
        done=lambda state, seat: state["red_vote"] is not None,
        done_message="You have already placed the red vote this turn.",
        not_now="The red vote opens when every card is on the table.",
    ),
)


def _pass_tell(state: dict, storyteller: int) -> None:
    state["tells"][storyteller] += 1
    if _laps_done(state):
        state["phase"] = "end"
    else:
        state["storyteller"] = _next_seat(state, storyteller)


# ---- turn resolution ---------------------------------------------------------------------------


def _advance(state: dict) -> None:
    """Resolve every phase that waits for nobody any more."""
    if state["phase"] == "give" and not waiting_for(state):
        _lay_table(state)
    if state["phase"] == "vote" and not waiting_for(state):
        _score_turn(state)


def _lay_table(state: dict) -> None:
    laid = [(state["story_card"], state["storyteller"])] if state["story_card"] else []
    laid += [(card, int(seat)) for seat, cards in state["given"].items() for card in cards]
    laid.sort()
    rng.draw(state).shuffle(laid)
    state["table"] = [{"position": i + 1, "card": card, "owner": owner} for i, (card, owner) in enumerate(laid)]
    state["phase"] = "vote"


def classic_points(storyteller: int, table: list, votes: dict, single_vote_bonus: bool) -> dict[int, int]:
    """Base-game points per seat (base and Team), from a turn's table and votes."""
    owner = {p["position"]: p["owner"] for p in table}
    story = next(p["position"] for p in table if p["owner"] == storyteller)
    points = Counter({storyteller: 0})
    found = [int(v) for v, picks in votes.items() if story in picks]
    if len(found) in (0, len(votes)):
        for voter in votes:
            points[int(voter)] += 2
    else:
        for seat in [storyteller] + found:
            points[seat] += 3
    if single_vote_bonus:
        for voter in found:
            if len(votes[str(voter)]) == 1:
                points[voter] += 1
    on_own_card = Counter(owner[p] for picks in votes.values() for p in picks if owner[p] != storyteller)
    for seat, count in on_own_card.items():
        points[seat] += min(count, CARD_VOTES_CAP)
    return dict(points)


def party_points(votes: dict, red_vote: int | None) -> dict[int, int]:
    """Party points: the crowd on one's green card, capped at 5; alone or on the red card, 0."""
    crowd = Counter(picks[0] for picks in votes.values())
    return {
        int(voter): 0 if picks[0] == red_vote or crowd[picks[0]] == 1 else min(crowd[picks[0]], PARTY_CAP)
        for voter, picks in votes.items()
    }


def _score_turn(state: dict) -> None:
    variant, seats, storyteller = _variant(state), state["players"], state["storyteller"]
    if variant == "party":
        points = party_points(state["votes"], state["red_vote"])
    else:
        points = classic_points(storyteller, state["table"], state["votes"], double_votes(variant, seats))
    record = {
        "turn": state["turn"],
        "storyteller": storyteller,
        "phrase": state["phrase"],
        "table": state["table"],
        "votes": state["votes"],
        "red_vote": state["red_vote"],
    }
    if variant == "team":
        by_team: Counter[int] = Counter()
        for seat, earned in points.items():
            by_team[team_of(seat, seats)] += earned
        record["scores"] = {str(s): by_team[team_of(s, seats)] for s in range(seats)}
        record["team_scores"] = {str(t): by_team[t] for t in range(seats // 2)}
        for team, earned in by_team.items():
            state["team_scores"][team] += earned
    else:
        record["scores"] = {str(s): points.get(s, 0) for s in range(seats)}
    for seat, earned in record["scores"].items():
        state["scores"][int(seat)] += earned
    state["history"].append(record)
    state["discard"] += [p["card"] for p in state["table"]]
    _refill(state)
    if variant == "party":
        _pass_hands_left(state)
    state.update(story_card=None, phrase=None, given={}, table=[], votes={}, red_vote=None, sitting_out=[])
    state["tells"][storyteller] += 1
    if _game_over(state):
        state["phase"] = "end"
        return
    state["turn"] += 1
    state["storyteller"] = _next_seat(state, storyteller)
    state["phase"] = "tell"


def _refill(state: dict) -> None:
    """Refill the hands of the seats still playing, in seat order; reshuffle the discards into a
    new draw pile whenever the draw pile runs out."""
    size = hand_size(_variant(state), state["players"])
    for seat in _active(state):
        hand = state["hands"][seat]
        while len(hand) < size:
            if not state["deck"]:
                if not state["discard"]:
                    return
                pile = sorted(state["discard"])
                rng.draw(state).shuffle(pile)
                state["deck"], state["discard"] = pile, []
            hand.append(state["deck"].pop(0))


def _pass_hands_left(state: dict) -> None:
    active = _active(state)
    passed = [state["hands"][seat] for seat in active]
    for i, hand in enumerate(passed):
        state["hands"][active[(i + 1) % len(active)]] = hand


def _laps_done(state: dict) -> bool:
    laps = state["options"]["laps"]
    return _variant(state) != "base" and all(state["tells"][s] >= laps for s in _active(state))


def _game_over(state: dict) -> bool:
    if _variant(state) == "base":
        return max(state["scores"]) >= WINNING_POINTS
    return _laps_done(state)


# ---- views -------------------------------------------------------------------------------------


def _hand_hidden(state: dict, seat: int) -> bool:
    """Party: the phrase comes before the storyteller looks at the new hand (turn 1: anyone's)."""
    if _variant(state) != "party":
        return False
    return state["phase"] == "claim" or (state["phase"] == "tell" and seat == state["storyteller"])


def view(state: dict, viewer) -> dict:
    variant, seats = _variant(state), state["players"]
    public = {
        "variant": variant,
        "turn": state["turn"],
        "storyteller": state["storyteller"],
        "phrase": state["phrase"],
        "deck_left": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "given": sorted(int(s) for s in state["given"]),
        "voted": sorted(int(s) for s in state["votes"]),
        "table": [{"position": p["position"], "card": p["card"]} for p in state["table"]],
        "history": state["history"],
        "last_turn": state["history"][-1] if state["history"] else None,
        "gives_per_player": gives_per_player(variant, seats),
        "double_votes": double_votes(variant, seats),
        "hand_size": hand_size(variant, seats),
        "tells": list(state["tells"]),
    }
    if variant == "team":
        public["teams"] = {str(s): team_of(s, seats) for s in range(seats)}
        public["team_scores"] = {str(t): points for t, points in enumerate(state["team_scores"])}
    if viewer == SHARED:
        return public
    if viewer == REVEALED:
        secret = {k: v for k, v in state.items() if k != "rng"}
        return {**public, **secret, "rng": None}
    seat = int(viewer)
    hidden = _hand_hidden(state, seat)
    mine = {
        "seat": seat,
        "hand": [] if hidden else sorted(state["hands"][seat]),
        "hand_hidden": hidden,
        "my_given": state["given"].get(str(seat), []),
        "my_vote": state["votes"].get(str(seat), []),
        "my_positions": sorted(_own_positions(state, seat)),
    }
    if seat == state["storyteller"]:
        mine["story_card"] = state["story_card"]
        if variant == "party":
            mine["my_red_vote"] = state["red_vote"]
    if variant == "team":
        mine["team"], mine["teammate"] = team_of(seat, seats), teammate(seat, seats)
    return {**public, **mine}


def outcome(state: dict) -> dict | None:
    if state["phase"] != "end":
        return None
    seats = state["players"]
    scores = {str(s): points for s, points in enumerate(state["scores"])}
    if _variant(state) != "team":
        return {"final_scores": scores, "winners": score_winners(scores)}
    team_scores = {str(t): points for t, points in enumerate(state["team_scores"])}
    best = set(score_winners(team_scores))
    return {
        "final_scores": scores,
        "winners": [s for s in range(seats) if team_of(s, seats) in best],
        "teams": {str(s): team_of(s, seats) for s in range(seats)},
        "team_scores": team_scores,
        "record": {"team_scores": team_scores},
    }


def _seats_ok(options: dict, seats: int) -> bool:
    variant = options.get("variant", "base")
    return variant == "base" or (seats >= 6 and (variant == "party" or seats % 2 == 0))


GAME = Game(
    name="odyssey",
    title="Dixit Odyssey",
    min_players=3,
    max_players=12,
    rules_version=RULES_VERSION,
    options={"variant": OneOf(VARIANTS, default="base"), "laps": Whole(1, MAX_LAPS, default=1)},
    **rules(globals(), secrets=family.secrets, alternative=family.alternative),
    host=Host(skippable=skippable, skip=_skip, kick=_kick),
    clock=Clock(family.PACE, reveal=family.REVEAL),
    audience=family.ODYSSEY_AUDIENCE,
    seats_for=lambda options: (3, 12) if options.get("variant", "base") == "base" else (6, 12),
    seats_ok=_seats_ok,
    content=Content(cards=content, min_cards=lambda options, seats: min_cards(options.get("variant", "base"), seats)),
    variants=({"variant": "base"}, {"variant": "party", "laps": 1}, {"variant": "team", "laps": 1}),
    demo=Demo(
        tables=(
            ({"variant": "base"}, 4, 8),
            ({"variant": "party", "laps": 1}, 6, 9),
            ({"variant": "team", "laps": 1}, 6, 8),
        ),
        simulate=family_play.simulate,
    ),
    family="dixit_family",
    bots=Bots(dixit_bot.play, ready=dixit_bot.ready, text={"tell": "phrase"}),
)
