#!/usr/bin/env python3
"""Anki's side of vocab-bench's progress figure, with Anki's own Python package (PyPI `anki`):

  bench_progress.py make OUT.apkg NOTES   a package of NOTES Basic notes in 10 decks, each card
                                          with 10 reviews over the last year (as a learner's
                                          log: 10 minutes, then 1, 2, 4, 7, 12, 20, 35, 60 and 90
                                          days apart) and in review with its last interval,
                                          exported by Anki with scheduling
  bench_progress.py graphs PACKAGE DAYS   imports it into a new collection, then times Anki's
                                          own statistics (the Rust core's graphs, as its
                                          Statistics screen asks them) over DAYS days; prints
                                          the best of 3 in seconds and the revlog rows
"""
import os
import random
import shutil
import sys
import tempfile
import time

from anki.collection import AddNoteRequest, Collection, ExportAnkiPackageOptions
from anki.import_export_pb2 import ImportAnkiPackageOptions, ImportAnkiPackageRequest

DAY = 86400000
GAPS = [0, 600000, DAY, 2 * DAY, 4 * DAY, 7 * DAY, 12 * DAY, 20 * DAY, 35 * DAY, 60 * DAY]


def make(out, count):
    work = tempfile.mkdtemp()
    try:
        col = Collection(os.path.join(work, "collection.anki2"))
        basic = col.models.by_name("Basic")
        decks = [col.decks.id(f"Progress::Part {i}") for i in range(10)]
        rng = random.Random(11)
        requests = []
        for i in range(count):
            note = col.new_note(basic)
            note["Front"] = f"word{i:06d}"
            note["Back"] = f"meaning {i}"
            requests.append(AddNoteRequest(note=note, deck_id=decks[i % 10]))
        col.add_notes(requests)
        now = int(time.time() * 1000)
        today = col.sched.today
        cards = col.db.list("select id from cards order by id")
        reviews, taken, states = [], set(), []
        for card in cards:
            at = now - 360 * DAY + rng.randrange(100 * DAY)
            last = None
            for n, gap in enumerate(GAPS):
                at += gap
                stamp = at
                while stamp in taken:
                    stamp += 1
                taken.add(stamp)
                interval = 0 if last is None else max(0, (at - last) // DAY)
                rating = rng.choice([1, 3, 3, 3, 3, 3, 4]) if n > 1 else 3
                reviews.append((stamp, card, -1, rating, interval, 0, 2500, 5000, 0 if n < 2 else 1))
                last = at
            next_interval = 120
            due_day = today + max(-30, (at + next_interval * DAY - now) // DAY)
            states.append((next_interval, due_day, card))
        col.db.executemany("insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) values (?,?,?,?,?,?,?,?,?)", reviews)
        col.db.executemany("update cards set type = 2, queue = 2, ivl = ?, due = ?, factor = 2500, reps = 10 where id = ?", states)
        col.export_anki_package(out_path=out, options=ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=False, with_media=True, legacy=False), limit=None)
        col.close()
    finally:
        shutil.rmtree(work)


def graphs(path, days):
    work = tempfile.mkdtemp()
    try:
        col = Collection(os.path.join(work, "collection.anki2"))
        col.import_anki_package(ImportAnkiPackageRequest(package_path=path, options=ImportAnkiPackageOptions(
            with_scheduling=True, merge_notetypes=True)))
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            col._backend.graphs(search="", days=days)
            best = min(best, time.perf_counter() - started)
        rows = col.db.scalar("select count() from revlog")
        col.close()
        print(f"{best:.4f} {rows}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    else:
        graphs(sys.argv[2], int(sys.argv[3]))
