"""The Trading Faces emotion cards: self-contained inline SVG, one distinct face per emotion."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from engine.pictures import trading_faces as faces

SVG_NS = "{http://www.w3.org/2000/svg}"
ALL = [*faces.EMOTIONS, "card back"]


def _svg(name: str) -> str:
    return faces.card_back_svg() if name == "card back" else faces.face_svg(name)


def test_thirteen_emotions_in_card_order():
    assert len(faces.EMOTIONS) == 13 == len(set(faces.EMOTIONS))
    assert faces.EMOTIONS[0] == "angry" and faces.EMOTIONS[12] == "in_love"
    assert set(faces.COLOURS) == set(faces.EMOTIONS)


@pytest.mark.parametrize("name", ALL)
def test_well_formed_self_contained_svg(name):
    text = _svg(name)
    root = ET.fromstring(text)
    assert root.tag == SVG_NS + "svg"
    assert root.get("viewBox") == "0 0 100 100"
    assert root.get("width") is None and root.get("height") is None  # scales to its box
    tags = {el.tag.removeprefix(SVG_NS) for el in root.iter()}
    assert not tags & {"script", "text", "tspan", "image", "use", "foreignObject", "style"}
    # no ids (many cards share a page), no links, no event handlers
    for el in root.iter():
        for attr in el.attrib:
            assert attr != "id" and "href" not in attr and not attr.startswith("on"), (name, el.tag, attr)
    # the only URL is the SVG namespace itself
    rest = text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not re.search(r"https?:|url\(|href|<script|<text", rest, re.I)


@pytest.mark.parametrize("name", ALL)
def test_strokes_are_thick_enough_for_a_phone(name):
    widths = [float(w) for w in re.findall(r'stroke-width="([\d.]+)"', _svg(name))]
    assert widths and min(widths) >= 4


def test_every_card_is_different():
    pictures = [faces.face_svg(e) for e in faces.EMOTIONS] + [faces.card_back_svg()]
    assert len(set(pictures)) == 14
    assert len(set(faces.COLOURS.values())) == 13


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


@pytest.mark.parametrize("emotion", faces.EMOTIONS)
def test_features_contrast_with_the_face(emotion):
    fill, ink = _luminance(faces.COLOURS[emotion]), _luminance(faces.INK)
    assert (fill + 0.05) / (ink + 0.05) >= 4.5


@pytest.mark.parametrize("bad", ["", "Happy", "joyful", "in love", "card back"])
def test_unknown_emotion_is_refused(bad):
    with pytest.raises(ValueError):
        faces.face_svg(bad)


def test_contact_sheet_page_shows_every_card():
    page = faces.sheet_html()
    assert page.count("<svg") == 2 * 13 + 2  # large and phone-size rows, each with the card back
    assert "in love" in page and 'data-testid="stApp"' in page
