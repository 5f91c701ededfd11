"""The same table service on PostgreSQL: what several server processes sharing one database need."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import tables
from tests.engine.games import test_bots
from tests.engine.tables import test_archive_privacy, test_audience, test_tables
from tests.engine.tables.test_tables import new_table
from tests.pages import test_pages

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.usefixtures("plain_cards", "postgres_url")

# The service's own tests, run again on PostgreSQL.
test_full_game_on_postgres = test_tables.test_full_game_through_legal_and_submit_alone_gives_a_record
test_kill_and_reopen_on_postgres = test_tables.test_kill_and_reopen_mid_game_gives_an_equal_state
test_bad_input_on_postgres = test_tables.test_bad_input_gets_a_clear_message_and_changes_nothing
test_host_actions_on_postgres = test_tables.test_host_skip_kick_end_and_play_again
test_merges_on_postgres = test_tables.test_merging_player_names_follows_chains
test_archive_version_on_postgres = test_tables.test_the_archive_version_moves_when_a_game_is_saved
test_pages_on_postgres = test_pages.test_a_room_through_lobby_play_and_end
test_simultaneous_votes_on_postgres = test_tables.test_voters_at_the_same_instant_lose_no_vote
test_phones_archive_on_postgres = test_archive_privacy.test_each_phone_sees_only_the_games_it_played_in
test_erase_game_on_postgres = test_archive_privacy.test_erasing_a_game_leaves_nothing_of_it
test_erase_player_on_postgres = (
    test_archive_privacy.test_erasing_a_person_renames_them_in_every_game_and_keeps_the_games
)
test_picks_mark_on_postgres = test_audience.test_a_turns_picks_are_read_again_only_when_a_pick_was_made_elsewhere
test_one_leader_on_postgres = (
    test_bots.test_one_process_plays_a_rooms_computer_players_and_another_takes_over_when_it_dies
)


def test_a_move_made_by_another_process_is_announced_to_this_one():
    """Two server processes: a move committed by one is announced (NOTIFY) to the other, whose
    watcher passes it to its open tabs."""
    room, seats = new_table(3)
    store = tables.store()
    assert store.changes("", wait=0) == []  # this process now LISTENs
    script = (
        "import sys; from engine import tables; print(tables.submit(sys.argv[1], 0, sys.argv[2], {'type': 'claim'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, room.code, seats[0].token], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    version = int(out.strip())
    heard = []
    for _ in range(20):
        heard += store.changes("", wait=0.5)
        if (room.code, version, None) in heard:
            break
    assert (room.code, version, None) in heard
    assert tables.view(room.code)["phase"] == "tell"


def test_the_record_is_the_same_document_on_both_stores():
    room, seats = new_table(3)
    tables.end(room.code, room.host_token)
    on_postgres = tables.record(room.code)
    assert json.loads(json.dumps(on_postgres)) == on_postgres
    assert on_postgres["format"] == "sobremesa.game/1" and on_postgres["players"][0]["name"] == "Ana"


def test_a_notify_ends_the_wait_at_once():
    """A move from another process wakes the waiting watcher when its NOTIFY arrives, not when the
    wait runs out (it used to sit out its whole timeout: a quarter second late on average)."""
    import threading
    import time

    import psycopg

    from engine import paths

    room, seats = new_table(3)
    store = tables.store()
    assert store.changes("", wait=0) == []  # this process now LISTENs

    def another_process_moves() -> None:
        time.sleep(0.5)
        with psycopg.connect(paths.database_url(), autocommit=True) as conn:
            conn.execute("SELECT pg_notify('sobremesa', %s)", (f"{room.code} 99",))

    threading.Thread(target=another_process_moves).start()
    began = time.monotonic()
    heard = store.changes("", wait=30)
    assert (room.code, 99, None) in heard
    assert time.monotonic() - began < 15  # far from the 30 s it would wait without the NOTIFY


def test_two_processes_with_their_own_data_folders_share_the_laptops_key_and_links(tmp_path, monkeypatch):
    """The laptop's key and the start command's one-time links live in the database, not in one
    process's data folder: a link made on one process is taken by the other, once."""
    from engine import laptop

    monkeypatch.setenv("SOBREMESA_DATA", str(tmp_path / "process-a"))
    laptop._keys.clear()
    key, link = laptop.key(), laptop.one_time_link("http://localhost:8501").split("laptop=", 1)[1]
    monkeypatch.setenv("SOBREMESA_DATA", str(tmp_path / "process-b"))
    laptop._keys.clear()  # another process: it knows no key yet
    assert laptop.proves(key) and laptop.redeem(link) and not laptop.redeem(link)


def test_a_deck_and_a_word_list_uploaded_on_one_process_are_served_by_another(tmp_path, monkeypatch):
    """What hosts upload lives in the store, not in one process's data folder."""
    from engine import pictures, words
    from tests.engine.content.test_pictures import png

    monkeypatch.setenv("SOBREMESA_DATA", str(tmp_path / "process-a"))
    ids = pictures.import_deck("Class 4B", [(f"p{i}.png", png(i)) for i in range(1, 4)])
    lines = "\n".join(",".join(f"w{card}x{i}" for i in range(8)) for card in range(12))
    list_id, _count = words.import_word_list("Romans", lines.encode())
    monkeypatch.setenv("SOBREMESA_DATA", str(tmp_path / "process-b"))
    assert "Class 4B" in pictures.deck_names()
    assert all(isinstance(pictures.card_image(card), bytes) for card in ids)
    assert words.word_lists() == {list_id: "Romans"} and len(words.word_list(list_id)) == 12


TICK = """
import sys, time
from engine import leases, tables
leases.lead = lambda code, *args, **kwargs: True  # both processes think they lead the room
code, start, at = sys.argv[1], float(sys.argv[2]), sys.argv[3]
while time.time() < start:
    time.sleep(0.001)
with tables.clock(lambda: at):
    print(tables.tick())
"""


def test_two_processes_past_one_deadline_skip_each_seat_once():
    """Both processes act on the same passed deadline at the same instant; the room's lock and the
    deadline read again inside the skip's transaction leave one skip per seat."""
    import random
    import time
    from datetime import datetime, timedelta

    from tests.engine.tables.test_pace import NAMES, clock_skips, play_one

    room = tables.create_room("dixit", options={"pace": "brisk", "skip_quiet": False})
    joined = [tables.join(room.code, n) for n in NAMES[:5]]
    tables.start(room.code, room.host_token)
    rnd = random.Random(5)
    while tables.view(room.code)["phase"] != "give":
        play_one(room, joined, rnd)
    view = tables.view(room.code)
    waited = sorted(view["waiting_for"])
    at = (datetime.fromisoformat(view["deadline"]) + timedelta(seconds=1)).isoformat(timespec="milliseconds")
    start = str(time.time() + 3)  # both start, import and connect first
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", TICK, room.code, start, at], cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    made = [int(p.communicate(timeout=60)[0].strip()) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    skipped = clock_skips(room.code)
    assert sorted(seat for seat, _ in skipped) == waited, f"skips {skipped} for seats {waited}"
    assert sum(made) == len(waited)
