"""Dixit on the stage: the family's screens (pages/stage/dixit_family.py)."""

from pages.stage.dixit_family import audience_line, member, phone, pick_text, wall

__all__ = ["audience_line", "member", "phone", "pick_text", "wall"]
