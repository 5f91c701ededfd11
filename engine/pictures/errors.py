"""Exceptions of engine.pictures. Every message is written for a person (a teacher, a host)."""

from __future__ import annotations


class DeckNotFound(LookupError):
    def __init__(self, name):
        self.name = name
        super().__init__(f"There is no picture deck called {name!r}.")

    def __str__(self) -> str:  # LookupError would otherwise quote the message again
        return self.args[0]


class CardNotFound(LookupError):
    def __init__(self, card_id):
        self.card_id = card_id
        super().__init__(f"There is no picture card {card_id!r}.")

    def __str__(self) -> str:
        return self.args[0]


class DeckRejected(ValueError):
    """An upload was refused; str(exc) is the human reason. Nothing was written. Like every
    refusal, an English template (the message catalogue's key) and its parameters."""

    def __init__(self, template: str, **params):
        self.template, self.params = template, params
        self.reason = template.format(**params) if params else template
        super().__init__(self.reason)
