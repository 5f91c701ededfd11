"""Write a contact sheet (a grid of all cards) of a deck.

.venv/bin/python -m engine.pictures.sheet OUT.png [--deck NAME] [--columns 10] [--width 120]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from . import DEFAULT_DECK, contact_sheet


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Write a contact sheet of a picture deck.")
    ap.add_argument("out", type=Path, help="output image (.png or .jpg)")
    ap.add_argument("--deck", default=DEFAULT_DECK)
    ap.add_argument("--columns", type=int, default=10)
    ap.add_argument("--width", type=int, default=120, help="thumbnail width in pixels")
    args = ap.parse_args(argv)
    sheet = contact_sheet(args.deck, columns=args.columns, thumb_width=args.width)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(args.out)
    print(f"{args.out}: {sheet.width}x{sheet.height}")


if __name__ == "__main__":
    main()
