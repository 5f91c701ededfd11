"""Statistics over the archive of saved-game records (DESIGN.md): pandas frames, no Streamlit.

    archive = stats.prepare(tables.records(), tables.player_aliases())   # once per archive version
    ids = stats.select(archive, games=["dixit"], start=date(...), end=date(...), players=["Ana"])
    stats.player_summary(archive, ids)                       # wins, average score and placement
    stats.audience_summary(archive, ids)                     # the best audience readers
    stats.summaries(archive, ids)                            # {family: {aggregate: DataFrame}}
    stats.score_history(record, archive.names_of(game_id))   # cumulative score per turn, one game

Every game family has one module here (`dixit_family.py`, `pictomania.py`, `trading_faces.py`,
`maudit_mot_dit.py`). A module declares
`NAME` (the `family` its games name on their Game), `TITLE` and `variant(record)`, and implements
`frames(records, game_ids)` (flat tables built once per archive version) and
`summaries(frames, ids, players)` (the aggregates the page shows, for the selected games).
A new family is a module here named as its games' `Game.family`; its charts live in
pages/stats_charts/ under the same name.
"""

from __future__ import annotations

from engine.stats.archive import (
    Archive,
    audience_summary,
    canonical_keys,
    from_rows,
    player_summary,
    prepare,
    score_history,
    select,
)
from engine.stats.registry import FAMILIES, family_of, members

__all__ = [
    "Archive",
    "audience_summary",
    "canonical_keys",
    "from_rows",
    "player_summary",
    "prepare",
    "score_history",
    "select",
    "FAMILIES",
    "family_of",
    "members",
]


def summaries(archive: Archive, ids) -> dict:
    """{family name: {aggregate name: DataFrame}} for the selected games, families with games only."""
    out = {}
    for name, module in FAMILIES.items():
        mine = archive.games.index[archive.games["game"].isin(members(module))].intersection(ids)
        if len(mine):
            out[name] = module.summaries(archive.frames[name], mine, archive.seat_players)
    return out
