"""Push: how a move reaches every open screen of its room. Nothing here imports Streamlit.

The flow, end to end:
1. A move commits (`engine.tables`, under the room's lock) and bumps the room's version;
   `tables.base` calls `live.notify(code, version)` once the transaction is done. Moves committed by
   another server process arrive through the store (PostgreSQL NOTIFY, SQLite's data_version) and
   are notified the same way. A phone coming or going calls `live.refresh(code)` (`engine.presence`).
2. `live` fans the version out to every socket of the room in this process. Each tab holds one
   WebSocket on `/events/<code>?t=<ticket>` (`pages/routes.py` checks the ticket, which
   `engine.gate` signs); the socket's coroutine wakes with the newest version.
3. Before sending, the socket looks at its own viewer's view at that version (`tables.look`, from
   the view cache): it signs the fields the screen read outside its live spots (`glance`), and draws
   the screen's live spots again from that view (`spots`: the waiting line, who is connected, the
   counts). The message is `{"version", "sig", "spots"}`; a refresh sends `{"spots", "at"}`.
4. In the tab, `pages/assets/push.js` compares the signature with the one its last render made
   (`pages/push.py` passed it, with the board of spots, to the listener). Equal: the screen's
   structure is unchanged, so it writes the spots in place and counts the version shown, with no
   Streamlit rerun. Different (a new hand, a phase, a reveal, a refusal): it reruns the room's
   fragment, which renders from a fresh view.

Modules: `live` (the fan-out and the socket endpoint), `glance` (which fields a screen read, and
their keyed signature), `spots` (the screens' live spots, kept per tab and drawn again per push).
"""
