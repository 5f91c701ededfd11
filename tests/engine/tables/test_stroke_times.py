"""Pictomania strokes carry "t", the milliseconds since their round's drawing began: stamped by the
table service with its own clock (a client's "t" is ignored), kept in the view and the record."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine import tables

NAMES = ["Ana", "Bo", "Cy"]
STROKE = {"type": "stroke", "points": [[10, 10], [500, 300]], "width": 8, "color": "#e53935"}


def _clock(start):
    moment = [start]

    def now():
        return moment[0].isoformat(timespec="milliseconds")

    return moment, now


def test_strokes_are_stamped_from_the_rounds_start_by_the_service():
    r = tables.create_room("pictomania", seed=4, language="en")
    seats = [tables.join(r.code, n) for n in NAMES]
    tables.start(r.code, r.host_token)
    moment, now = _clock(datetime(2026, 1, 1, 20, 0, tzinfo=UTC))
    with tables.clock(now):
        for s in seats:
            tables.submit(r.code, s.seat, s.token, {"type": "ready"})  # the last one deals: drawing begins
        moment[0] += timedelta(seconds=2.5)
        tables.submit(r.code, 0, seats[0].token, {**STROKE, "t": 999_999})  # the client's t is not trusted
        moment[0] += timedelta(seconds=1)
        tables.submit(r.code, 0, seats[0].token, STROKE)
    drawing = tables.view(r.code)["drawings"]["0"]
    assert [s["t"] for s in drawing] == [2500, 3500]
    tables.reset()  # a restart: the round's start is found again in the move log
    with tables.clock(now):
        moment[0] += timedelta(seconds=1)
        tables.submit(r.code, 1, seats[1].token, STROKE)
    assert tables.view(r.code)["drawings"]["1"][0]["t"] == 4500
