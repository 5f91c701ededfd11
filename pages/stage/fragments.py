"""A screen in fragments, each drawn only when what it reads changed (LiveView's change tracking).

A template marks a fragment with a block named `f_<name>`, inside the element that holds it, which
carries `data-frag="f_<name>"` (pages/stage/templates/wall.html, phone.html, member.html: every game
gets them; a game's own template may mark finer ones, inside another fragment too).

While a fragment's block renders, every variable it resolves and every field of a dict variable it
reads (`view.scores`, `me.picks`) is noted: those are its inputs, and the language, the template and
the block are part of its key. Its HTML is kept by the fingerprint of those inputs' values, so it is
shared only by screens whose inputs are all the same (a seat's token, read by the fragment that
shows it, keeps that fragment its own). The next time the block is asked for, each set of inputs it
read before is looked up with today's values; a match is the same HTML, and the block is not run.

What is left around the fragments (the shell: the screen's own element and the fragments' holders)
is rendered every time; the socket sends the whole screen when the shell changed, else only the
fragments whose keys changed (engine/push/stage.py). Macros read only their arguments (tested in
tests/stage/test_fragments.py): a macro's free variable would be read outside any fragment.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
from contextvars import ContextVar

from engine.push.stage import Screen
from pages.stage.reading import kept_at_most, latest_first

STAGE = secrets.token_hex(6)  # in the sentinels: player text cannot forge one
_SENTINEL = re.compile("\x00" + STAGE + r":(f_[A-Za-z0-9_]+)\x00")
KEPT = 8192  # fragments kept, by their inputs
READSETS = 8  # the distinct sets of inputs remembered per fragment (one per branch it takes)
ALL = "*"


class _Missing:
    """A variable or field that is not there, told apart from one that is None (`is defined`)."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()

_kept: dict[str, tuple[str, tuple[str, ...]]] = {}
_readsets: dict[tuple, list[tuple[str, ...]]] = {}
_guard = threading.Lock()
renders: dict[tuple[str, str], int] = {}  # (template, fragment) -> times its block ran (tests count them)
# Whose screen is being drawn (pages/stage/serve.py sets it): each viewer's fragment is looked up
# first with the inputs it read last time, which are nearly always the ones it reads now.
viewer: ContextVar[str] = ContextVar("viewer", default="")
_last: dict[tuple, tuple[str, ...]] = {}
TRIED = 3  # other sets of inputs tried before the block is run (another viewer's branch)


def sentinel(name: str) -> str:
    return f"\x00{STAGE}:{name}\x00"


class _Frame:
    def __init__(self, name: str) -> None:
        self.name = name
        self.read: set[str] = set()
        self.inner: list[str] = []


class Recorder:
    """One render's notes: the frame of the fragment being rendered (the shell's at the bottom)."""

    def __init__(self) -> None:
        self.frames = [_Frame("")]
        self.frags: dict[str, list] = {}  # name -> [key, html with sentinels, parent], in document order
        self.paused = False

    def note(self, name: str) -> None:
        if not self.paused:
            self.frames[-1].read.add(name)


class Noting(dict):
    """A dict variable whose fields are noted as `<var>.<field>` when read; walking it whole notes
    `<var>.*`. A field read also reaches the screen's own `Reading` (pages/stage/reading.py)."""

    def __init__(self, value: dict, var: str, rec: Recorder) -> None:
        super().__init__(dict.items(value))  # copied without walking it (a Reading would note it all)
        self._var, self._rec = var, rec
        self._base = getattr(value, "read", None)  # a Reading: the screen's whole reads

    def _note(self, key) -> None:
        self._rec.note(f"{self._var}.{key}")
        if self._base is not None:
            self._base.add(key)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)

    def __contains__(self, key) -> bool:
        self._note(key)
        return super().__contains__(key)

    def __len__(self) -> int:  # `{% if me %}`, `| length`: its size is read
        self._rec.note(f"{self._var}.#")
        return super().__len__()

    def _whole(self):
        self._note(ALL)
        if self._base is not None:
            self._base.add(ALL)

    def __iter__(self):
        self._whole()
        return super().__iter__()

    def keys(self):
        self._whole()
        return super().keys()

    def items(self):
        self._whole()
        return super().items()

    def values(self):
        self._whole()
        return super().values()


class Variables(dict):
    """A render's variables as Jinja's context reads them (`resolve_or_missing` asks `in` first)."""

    def __init__(self, values: dict, rec: Recorder) -> None:
        super().__init__(
            {k: Noting(v, k, rec) if isinstance(v, dict) and not callable(v) else v for k, v in values.items()}
        )
        self.rec = rec
        self._texts: dict[str, str] = {}

    def text(self, name: str) -> str:
        """An input's value as its key reads it, worked out once a render (a render's variables
        do not change while it runs; a fragment's inputs are looked at by each of its candidates)."""
        found = self._texts.get(name)
        if found is None:
            found = self._texts[name] = repr(self.value(name))
        return found

    def __contains__(self, key) -> bool:
        self.rec.note(key)
        return super().__contains__(key)

    def value(self, name: str):
        """An input's value now (`view.scores`, `phase_line`), read without noting it."""
        var, _, field = name.partition(".")
        value = dict.get(self, var, MISSING)
        if field and field != "#" and isinstance(value, dict):
            return dict(dict.items(value)) if field == ALL else dict.get(value, field, MISSING)
        if field == "#" and isinstance(value, dict):
            return dict.__len__(value)
        if isinstance(value, Noting):  # a dict: its fields and its size are inputs of their own
            return "{}"
        if callable(value):  # the language's (the language is in every key)
            return None
        return value


def _key(template: str, block: str, lang: str, names: tuple[str, ...], variables: Variables) -> str:
    # repr, not JSON: three times cheaper, and as faithful for the builtin values a screen's variables
    # hold (two equal dicts built in another order only miss, and are drawn again).
    text = "\x1f".join([template, block, lang, *names, *(variables.text(n) for n in names)])
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def fragment(name: str, real, context, variables: Variables, lang: str):
    """The block `name` as a fragment: its HTML kept or rendered, and a sentinel in its place."""
    rec, template = variables.rec, context.name or ""
    parent = rec.frames[-1].name
    rec.frames[-1].inner.append(name)
    slot: list = [None, "", parent]
    rec.frags[name] = slot  # its place in document order, before the fragments inside it
    where = (template, name, lang)
    found = None
    mine = (viewer.get(), *where)
    rec.paused = True
    try:
        with _guard:
            hint = _last.get(mine)
            known = [hint] if hint else []
            known += [n for n in _readsets.get(where, ())[:TRIED] if n != hint]
        for names in known:
            key = _key(template, name, lang, names, variables)
            with _guard:
                found = _kept.get(key)
            if found is not None:
                break
    finally:
        rec.paused = False
    if found is not None:
        html, inner = found
        base = getattr(dict.get(variables, "view"), "_base", None)
        for n in names:  # the screen's own reads, as if the block had run
            var, _, field = n.partition(".")
            if var == "view" and field and base is not None:
                base.add(field)
        rec.frames.append(_Frame(name))
        try:
            for child in inner:  # the fragments inside it, each kept or drawn on its own
                for _ in context.blocks[child][0](context):
                    pass
        finally:
            rec.frames.pop()
        slot[0], slot[1] = key, html
        with _guard:
            _last[mine] = names
        return sentinel(name)
    frame = _Frame(name)
    rec.frames.append(frame)
    try:
        html = "".join(real(context))
    finally:
        rec.frames.pop()
    names = tuple(sorted(frame.read))
    rec.paused = True
    try:
        key = _key(template, name, lang, names, variables)
    finally:
        rec.paused = False
    with _guard:
        renders[(template, name)] = renders.get((template, name), 0) + 1
        kept_at_most(_kept, key, (html, tuple(frame.inner)), KEPT)
        latest_first(_readsets.setdefault(where, []), names, READSETS)
        kept_at_most(_last, mine, names, KEPT)
    slot[0], slot[1] = key, html
    return sentinel(name)


class Blocks(dict):
    """A context's blocks, each `f_` one drawn as a fragment."""

    def __init__(self, blocks: dict, variables: Variables, lang: str) -> None:
        super().__init__(blocks)
        self.variables, self.lang = variables, lang

    def __getitem__(self, name):
        chain = super().__getitem__(name)
        if not name.startswith("f_"):
            return chain
        real = chain[0]

        def drawn(context):
            yield fragment(name, real, context, self.variables, self.lang)

        return [drawn, *chain]


def screen(template, values: dict, lang: str) -> Screen | str:
    """Render `template` with `values`: a `Screen` when it has fragments, else its HTML."""
    rec = Recorder()
    variables = Variables(values, rec)
    context = template.new_context(variables, shared=True)
    for name, fn in template.globals.items():
        dict.setdefault(variables, name, fn)
    context.blocks = Blocks(context.blocks, variables, lang)
    shell = "".join(template.root_render_func(context))
    if not rec.frags:
        return shell
    raw = {name: slot[1] for name, slot in rec.frags.items()}

    def expand(text: str) -> str:
        return _SENTINEL.sub(lambda m: expand(raw.get(m.group(1), "")), text)

    frags = {name: (slot[0], expand(slot[1]), slot[2]) for name, slot in rec.frags.items()}
    shell_key = hashlib.blake2b(shell.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    return Screen(expand(shell), shell_key, frags)


def join(first: Screen | str, then: Screen | str) -> Screen | str:
    """Two screens one after the other in one root (the wall and its corners)."""
    if not isinstance(first, Screen) and not isinstance(then, Screen):
        return first + then
    a = first if isinstance(first, Screen) else Screen(first, _hash(first), {})
    b = then if isinstance(then, Screen) else Screen(then, _hash(then), {})
    return Screen(a.html + b.html, _hash(a.shell + b.shell), {**a.frags, **b.frags})


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
