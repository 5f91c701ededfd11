"""How a change reaches every open screen.

1. A move (or any change of a room) is committed under the room's lock; then `live.notify(code,
   version)` wakes every stage socket of that room in this process (other processes hear of it
   through the store: `tables.watch_other_processes`).
2. Each socket (`stage`) looks at its own viewer's view at that version (`tables.stage_look`, from
   the view cache: a hundred sockets of a room read its rows once), draws its screen once per
   distinct screen, and sends it only when it changed; a tab morphs it in place.
3. A tap comes back on the same socket as a move, played once whatever the retries.

A tab holds one socket of the app's own: its page's Streamlit part (the host's controls, the
drawing pad, a phone waiting for the host) learns from it when the fields it read changed.

Modules: `live` (the fan-out), `stage` (the socket: what a screen and a move are is injected).
"""
