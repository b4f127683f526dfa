#!/usr/bin/env python3
"""Anki's side of vocab-bench's package import figure, with Anki's own Python package (PyPI `anki`):

  bench_anki.py make OUT.apkg NOTES   a package of NOTES Basic notes in 10 decks, each note with a
                                      4-review history, exported by Anki (current format, with
                                      scheduling)
  bench_anki.py import PACKAGE        imports it into a new collection; prints the seconds the
                                      import itself took (Python's start and Anki's loading aside),
                                      the notes and the collection's size in bytes
"""
import os
import random
import shutil
import sys
import tempfile
import time

from anki.collection import AddNoteRequest, Collection, ExportAnkiPackageOptions
from anki.import_export_pb2 import ImportAnkiPackageOptions, ImportAnkiPackageRequest

DAY0 = 1767603600000
DAY = 86400000


def make(out, count):
    work = tempfile.mkdtemp()
    try:
        col = Collection(os.path.join(work, "collection.anki2"))
        basic = col.models.by_name("Basic")
        decks = [col.decks.id(f"Bench::Part {i}") for i in range(10)]
        rng = random.Random(7)
        requests = []
        for i in range(count):
            note = col.new_note(basic)
            note["Front"] = f"word{i:06d}"
            note["Back"] = f"meaning of <b>word {i}</b><br>뜻 {i}"
            note.tags = ["bench", f"group{i % 50}"]
            requests.append(AddNoteRequest(note=note, deck_id=decks[i % 10]))
        col.add_notes(requests)
        cards = col.db.list("select id from cards order by id")
        reviews = []
        for n, card in enumerate(cards):
            offsets = [0, 600000, DAY, 4 * DAY]
            for offset in offsets:
                reviews.append((DAY0 + n * 1000 + offset * 1 + len(reviews) % 1000, card, -1, rng.choice([1, 3, 3, 3, 4]), 1, 0, 2500, 5000, 1))
        col.db.executemany("insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) values (?,?,?,?,?,?,?,?,?)", reviews)
        col.export_anki_package(out_path=out, options=ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=False, with_media=True, legacy=False), limit=None)
        col.close()
    finally:
        shutil.rmtree(work)


def import_package(path):
    work = tempfile.mkdtemp()
    try:
        col = Collection(os.path.join(work, "collection.anki2"))
        started = time.perf_counter()
        col.import_anki_package(ImportAnkiPackageRequest(package_path=path, options=ImportAnkiPackageOptions(
            with_scheduling=True, merge_notetypes=True)))
        took = time.perf_counter() - started
        notes = col.note_count()
        col.close()
        size = sum(os.path.getsize(os.path.join(work, name)) for name in os.listdir(work)
                   if name.startswith("collection.anki2"))
        print(f"{took:.4f} {notes} {size}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]))
    else:
        import_package(sys.argv[2])
