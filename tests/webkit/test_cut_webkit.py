"""Safari's engine on a school's Wi-Fi: an iPhone-sized WebKit phone reaches the server through a
fault proxy (tests/faults/proxy.py, a phone at 127.0.0.2); its connection is cut by resets
mid-turn while the table plays on, and it comes back to the current screen by itself and plays."""

from __future__ import annotations

import pytest

from engine import tables
from tests.faults.proxy import Proxy
from tests.faults.table import server_env
from tests.webkit.drive import button, showing, until
from tests.webkit.test_dixit_webkit import api_move, pick_and_confirm

pytestmark = pytest.mark.webkit


def test_a_phone_cut_mid_turn_comes_back_by_itself(serve, webkit, monkeypatch):
    srv = serve(env=server_env())
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])  # this process, the server's database
    tables.reset()
    room = tables.create_room("dixit", seed=4, language="en")
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy", "Di")]
    tables.start(room.code, room.host_token)
    proxy = Proxy(srv.port)
    try:
        bo = webkit.phone()
        bo.get(f"{proxy.url}/play?room={room.code}&seat=1&token={seats[1].token}")
        until(bo, showing("Bo"), "Bo's phone never showed his seat")
        tables.submit(room.code, 0, seats[0].token, {"type": "claim"})
        hand = tables.view(room.code, 0, seats[0].token)["hand"]
        tables.submit(room.code, 0, seats[0].token, {"type": "tell", "card": hand[0], "phrase": "The sea"})
        proxy.reset()  # cut while the turn goes on without him: Cy gives
        api_move(room.code, seats[2], "give")
        proxy.reset()
        button(bo, "Give this card")  # back by itself, at the give
        pick_and_confirm(bo, "You gave:")
        proxy.reset()
        api_move(room.code, seats[3], "give")  # the vote comes to him, cut or not
        button(bo, "Vote for this card")
        pick_and_confirm(bo, "You voted for card", 1, enabled_only=True)
        gives = [e for e in tables.move_log(room.code, 1) if e["move"]["type"] == "give" and e["actor"] == "1"]
        assert len(gives) == 1  # once, whatever the cuts
    finally:
        proxy.close()
