"""Push: how a move reaches every open screen of its room. Nothing here imports Streamlit.

The flow, end to end:
1. A move commits (`engine.tables`, under the room's lock) and bumps the room's version;
   `tables.base` calls `live.notify(code, version)` once the transaction is done. Moves committed by
   another server process arrive through the store (PostgreSQL NOTIFY, SQLite's data_version) and
   are notified the same way.
2. `live` fans the version out to every socket of the room in this process. Each tab holds one
   WebSocket on `/events/<code>?t=<ticket>` (`pages/routes.py` checks the ticket, `engine.gate`
   signs it); the socket's coroutine wakes with the newest version.
3. Before sending, a seat's socket looks at its seat's view at that version (`tables.look`,
   from the view cache) and signs the fields the screen read (`glance`). The message is
   `{"version", "sig"}`.
4. In the tab, `pages/assets/push.js` compares the signature with the one its last render made.
   Equal: the screen would draw what it shows, so it marks the version shown with no Streamlit
   rerun. Different: it reruns the room's fragment, which renders from a fresh view.

Modules: `live` (the fan-out and the socket endpoint), `glance` (which fields a screen read, and
their keyed signature).
"""
