"""The message catalogue: every string a person reads, in English, Spanish and Italian.

English is the source and the key (gettext's way): `data/locale/<lang>/LC_MESSAGES/sobremesa.po`
hold the translations, `data/locale/sobremesa.pot` the template. The .po files are read directly
(compiled in memory once per process), so there is no build step. Translations are per call,
never installed process-wide: two tabs of one server show two languages (`pages/i18n.py` picks
each tab's language).

    python -m engine.i18n        # extract the messages again and merge them into es and it

Extraction reads the pages (`_`, `n_`, `N_`), the stage's templates, and the engine's refusals: the first string of
every `raise SomeError("...")`, every class's `template = "..."` and `TEMPLATES = {...}`.
"""

from __future__ import annotations

import ast
import functools
import gettext
import io
from pathlib import Path

from engine.core.game import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "data" / "locale"
DOMAIN = "sobremesa"
SOURCE = "en"
NAMES = {"en": "English", "es": "Español", "it": "Italiano"}  # each in its own language
KEYWORDS = {"_": None, "n_": (1, 2), "N_": None}


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of one language (English: the messages as written)."""
    if lang not in LANGUAGES or lang == SOURCE or not po_path(lang).is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def translate(lang: str, message: str, **params) -> str:
    text = translations(lang).gettext(message)
    return text.format(**params) if params else text


def refusal(lang: str, exc) -> str:
    """A refusal (a `SobremesaError`) in `lang`: its template is the catalogue's key, filled with its
    parameters (a word deck's colour is a word of the catalogue too). The pages and the stage's
    socket say refusals this one way."""
    template = getattr(exc, "template", None)
    if not template:
        return str(exc)
    params = dict(getattr(exc, "params", None) or {})
    if isinstance(params.get("deck"), str):
        params["deck"] = translate(lang, params["deck"])
    try:
        return translate(lang, template, **params)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder: English
        return str(exc)


def translate_plural(lang: str, singular: str, plural: str, n: int, **params) -> str:
    return translations(lang).ngettext(singular, plural, n).format(n=n, **params)


def best_language(accepted: str | None) -> str | None:
    """The first of our languages in an Accept-Language header or a browser locale ("es-ES")."""
    if not accepted:
        return None
    ranked = []
    for i, part in enumerate(str(accepted).split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        ranked.append((-weight, i, tag.strip().lower().replace("_", "-").split("-")[0]))
    for _, _, lang in sorted(ranked):
        if lang in LANGUAGES:
            return lang
    return None


# ---- extraction --------------------------------------------------------------------------------


def engine_messages() -> list[tuple[str, str, int]]:
    """(message, file, line) for every refusal the engine can raise, from its source."""
    found = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            strings: list[ast.AST] = []
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                strings.append(node.exc.args[0])
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in ("template", "TEMPLATES") for t in node.targets
            ):
                strings += node.value.values if isinstance(node.value, ast.Dict) else [node.value]
            elif isinstance(node, ast.keyword) and node.arg in ("not_now", "done_message", "too_long", "empty", "does"):
                strings.append(node.value)
            for s in strings:
                if isinstance(s, ast.Constant) and isinstance(s.value, str) and s.value.strip():
                    found.append((s.value, where, s.lineno))
    return found


def template():
    """Every message of the source as a Babel catalogue (what `extract` writes as the .pot)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="Sobremesa", domain=DOMAIN, charset="utf-8")
    # The stage's templates too (pages/stage/templates: `_`, `n_` and `_h`, markup of ours in it).
    methods = [("**/templates/**.html", "jinja2"), ("**.py", "python")]
    for filename, lineno, message, comments, _ in extract_from_dir(
        str(ROOT / "pages"),
        method_map=methods,
        keywords={**KEYWORDS, "_h": None},
        comment_tags=("TRANSLATORS:",),
        options_map={"**/templates/**.html": {"trim_blocks": "true", "lstrip_blocks": "true"}},
    ):
        catalog.add(message, locations=[(f"pages/{filename}", lineno)], auto_comments=comments)
    from babel.messages.extract import extract_from_file

    for lineno, message, comments, _ in extract_from_file("python", str(ROOT / "app.py"), keywords=KEYWORDS):
        catalog.add(message, locations=[("app.py", lineno)], auto_comments=comments)
    for message, where, lineno in engine_messages():
        catalog.add(message, locations=[(where, lineno)])
    return catalog


def read(lang: str):
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang)


def extract() -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    template_ = template()
    LOCALE.mkdir(parents=True, exist_ok=True)
    with (LOCALE / f"{DOMAIN}.pot").open("wb") as fh:
        write_po(fh, template_, width=100, omit_header=False)
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_file():
            with path.open("rb") as fh:
                catalog = read_po(fh, locale=lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Sobremesa", charset="utf-8")
        catalog.update(template_, no_fuzzy_matching=True)
        with path.open("wb") as fh:
            write_po(fh, catalog, width=100, ignore_obsolete=True)


if __name__ == "__main__":
    extract()
    print(f"messages extracted into {LOCALE}")
