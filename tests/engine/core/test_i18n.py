"""The message catalogue: complete in Spanish and Italian, placeholders kept, extraction up to date,
and per tab (two tabs of one server, two languages)."""

from __future__ import annotations

import re

import pytest

from engine import i18n
from tests.helpers import source_messages

TRANSLATED = [lang for lang in i18n.NAMES if lang != i18n.SOURCE]
PLACEHOLDER = re.compile(r"\{(\w*)\}")
# Messages a translation may leave as they are: the same word in that language.
SAME = {
    "es": {"No", "Total", "OK", "Dixit", "Pictomania", "Party", "Normal", "{phase}: {n} s"},
    "it": {
        "Host",  # Italian says "host" (the app's "comandi dell'host")
        "Volume {n} %",
        "No",
        "OK",
        "Dixit",
        "Pictomania",
        "Round",
        "Party",
        "host",
        "Round {round}",
        "R{round}",
        "T{turn}",
        "Base",
        "Standard",
        "Memory",
        "{phase}: {n} s",
    },
}  # Memory: the card game's Italian name


def messages(catalog):
    return [m for m in catalog if m.id]


def test_the_committed_template_holds_every_message_of_the_source():
    from babel.messages.pofile import read_po

    with (i18n.LOCALE / f"{i18n.DOMAIN}.pot").open("rb") as fh:
        committed = {m.id if isinstance(m.id, str) else m.id[0] for m in messages(read_po(fh))}
    source = {m.id if isinstance(m.id, str) else m.id[0] for m in messages(source_messages())}
    assert source - committed == set(), "run `python -m engine.i18n` and translate the new messages"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang):
    catalog = i18n.read(lang)
    source = {m.id if isinstance(m.id, str) else m.id[0] for m in messages(source_messages())}
    missing, untranslated = [], []
    for message in messages(catalog):
        key = message.id if isinstance(message.id, str) else message.id[0]
        if key not in source:
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy or not all(strings):
            missing.append(key)
        elif (
            isinstance(message.id, str)
            and message.string == message.id
            and re.search("[a-z]{3}", key)
            and key not in SAME[lang]
        ):
            untranslated.append(key)
    found = {m.id if isinstance(m.id, str) else m.id[0] for m in messages(catalog)}
    missing += sorted(source - found)
    assert missing == [], f"{len(missing)} messages have no {lang} translation: {missing[:5]}"
    assert untranslated == [], f"left in English in {lang}: {untranslated[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang):
    wrong = []
    for message in messages(i18n.read(lang)):
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = set(PLACEHOLDER.findall(" ".join(ids)))
        for text in strings:
            if text and set(PLACEHOLDER.findall(text)) - wanted | (wanted - set(PLACEHOLDER.findall(text)) - {"n"}):
                wrong.append((ids[0], text))
    assert wrong == [], wrong[:5]


def test_plurals_follow_each_language():
    assert i18n.translate_plural("en", "{n} point", "{n} points", 1) == "1 point"
    assert i18n.translate_plural("en", "{n} point", "{n} points", 2) == "2 points"
    for lang in TRANSLATED:
        one = i18n.translate_plural(lang, "{n} point", "{n} points", 1)
        many = i18n.translate_plural(lang, "{n} point", "{n} points", 5)
        assert one.startswith("1 ") and many.startswith("5 ") and one != many and "point" not in many


def test_translations_are_per_call_never_installed_for_the_process():
    import builtins

    assert i18n.translate("es", "Join") != i18n.translate("it", "Join") != "Join"
    assert not hasattr(builtins, "_") or builtins._ is not i18n.translations("es").gettext


def test_the_browsers_language_is_read_from_its_header():
    assert i18n.best_language("es-ES,es;q=0.9,en;q=0.8") == "es"
    assert i18n.best_language("fr-FR, it;q=0.5, en;q=0.4") == "it"
    assert i18n.best_language("de-DE") is None and i18n.best_language(None) is None
