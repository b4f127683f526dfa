#!/usr/bin/env python3
"""Makes the Anki package fixtures in Tests/VocabCLITests/Fixtures with the real tools:

- anki-modern.apkg: Anki's own default export (PyPI `anki`: version 3, collection.anki21b in
  zstd, with its placeholder collection.anki2), with scheduling and media: a deck "TOEIC" whose
  description holds a cover image, a subdeck, Basic notes (Korean, HTML, tags, a [sound:] tag),
  a "Basic (and reversed card)" note, Cloze notes, a note type of its own (Kanji, Kana,
  Meaning, Audio), and a review history written at fixed times (so the next due dates are
  known), plus a manual reschedule that is not a review.
- anki-legacy.apkg: the same collection in Anki's legacy export (collection.anki21, schema 11).
- anki-collection.colpkg: the same collection as a whole-collection package.
- genanki.apkg: a deck written by genanki (collection.anki2, no meta).
- Hostile packages derived from them: truncated, a zip bomb (deflate) and a zstd bomb, a media
  name climbing out of its folder, a collection that is not SQLite, an unknown meta version,
  a collection without its review log, or with its log or notes lacking a column.

Run it in a virtual environment that has them:
  python3 -m venv /tmp/fx && /tmp/fx/bin/pip install anki genanki && /tmp/fx/bin/python scripts/make_anki_packages.py
"""
import os
import shutil
import sqlite3
import struct
import subprocess
import tempfile
import zipfile
import zlib

from anki.collection import Collection, ExportAnkiPackageOptions

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "VocabCLITests", "Fixtures")
# 2026-01-05 09:00 UTC, in milliseconds: the first review of the fixed history.
DAY0 = 1767603600000
DAY = 86400000


def png(width=2, height=2):
    """A small valid PNG (red pixels)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def add_reviews(col, card_id, reviews, second=0):
    """Writes review log entries at fixed times (ms offsets from DAY0, plus `second` seconds so
    that two cards' logs never share an id) and leaves the card in review."""
    for offset, ease, kind in reviews:
        col.db.execute("insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) values (?,?,?,?,?,?,?,?,?)",
                       DAY0 + offset + second * 1000, card_id, -1, ease, 1, 0, 2500, 6000, kind)
    col.db.execute("update cards set type = 2, queue = 2, ivl = 3, due = 10, reps = ? where id = ?", len(reviews), card_id)


def build_collection(work):
    col = Collection(os.path.join(work, "collection.anki2"))
    col.media.write_data("cover.png", png())
    col.media.write_data("hello.mp3", b"ID3 not really audio")
    toeic = col.decks.id("TOEIC")
    deck = col.decks.get(toeic)
    deck["desc"] = 'Words for the <b>TOEIC</b> test.<br><img src="cover.png">'
    col.decks.save(deck)
    verbs = col.decks.id("TOEIC::Verbs")

    basic = col.models.by_name("Basic")
    note = col.new_note(basic)
    note["Front"] = "abandon"
    note["Back"] = "to leave <b>behind</b><br>버리다 &amp; 포기하다 [sound:hello.mp3]"
    note.tags = ["exam", "verb"]
    col.add_note(note, verbs)
    add_reviews(col, note.card_ids()[0], [(0, 3, 0), (600000, 3, 0), (DAY, 3, 1), (4 * DAY, 3, 1)])
    # A manual reschedule (ease 0, type 4) is not a review.
    col.db.execute("insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) values (?,?,?,?,?,?,?,?,?)",
                   DAY0 + 5 * DAY, note.card_ids()[0], -1, 0, 10, 3, 2500, 0, 4)

    note = col.new_note(basic)
    note["Front"] = "사과"
    # The same picture as the deck's cover: Anki exports the media its notes use, so this is
    # what carries the cover into the package.
    note["Back"] = "apple<div>a red \"fruit\"</div><img src=\"cover.png\">"
    col.add_note(note, toeic)
    add_reviews(col, note.card_ids()[0], [(0, 1, 0), (60000, 3, 0), (660000, 3, 0), (2 * DAY, 2, 1)], second=1)

    reversed_type = col.models.by_name("Basic (and reversed card)")
    note = col.new_note(reversed_type)
    note["Front"] = "borrow"
    note["Back"] = "빌리다"
    col.add_note(note, toeic)
    forward, backward = sorted(note.card_ids(), key=lambda cid: col.get_card(cid).ord)
    add_reviews(col, forward, [(0, 3, 0), (DAY, 4, 1)], second=2)
    add_reviews(col, backward, [(3600000, 2, 0), (DAY + 3600000, 3, 1), (3 * DAY, 3, 1)], second=3)

    cloze = col.models.by_name("Cloze")
    note = col.new_note(cloze)
    note["Text"] = "The {{c1::cat::animal}} sat on the {{c2::mat}}."
    note["Back Extra"] = "고양이"
    col.add_note(note, verbs)

    custom = col.models.new("Japanese")
    for name in ["Kanji", "Kana", "Meaning", "Audio"]:
        col.models.add_field(custom, col.models.new_field(name))
    template = col.models.new_template("Recognition")
    template["qfmt"] = "{{Kanji}}"
    template["afmt"] = "{{FrontSide}}<hr id=answer>{{Kana}}<br>{{Meaning}}"
    col.models.add_template(custom, template)
    col.models.add(custom)
    custom = col.models.by_name("Japanese")
    note = col.new_note(custom)
    note["Kanji"] = "猫"
    note["Kana"] = "ねこ"
    note["Meaning"] = "cat"
    note["Audio"] = "[sound:neko.mp3]"
    col.add_note(note, col.decks.id("Japanese"))
    return col


def anki_packages():
    work = tempfile.mkdtemp()
    try:
        col = build_collection(work)
        for name, legacy in [("anki-modern.apkg", False), ("anki-legacy.apkg", True)]:
            col.export_anki_package(out_path=os.path.join(OUT, name),
                                    options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=False,
                                                                     with_media=True, legacy=legacy), limit=None)
        col.export_collection_package(out_path=os.path.join(OUT, "anki-collection.colpkg"), include_media=True, legacy=False)
        col.close()
    finally:
        shutil.rmtree(work)


def genanki_package():
    import genanki
    model = genanki.Model(1607392319, "Simple Model",
                          fields=[{"name": "Front"}, {"name": "Back"}],
                          templates=[{"name": "Card 1", "qfmt": "{{Front}}", "afmt": "{{FrontSide}}<hr id=answer>{{Back}}"}])
    deck = genanki.Deck(2059400110, "Genanki Words", description='GRE words <img src="gre-cover.png">')
    for front, back in [("serendipity", "a happy accident"), ("ephemeral", "lasting a very short time")]:
        deck.add_note(genanki.Note(model=model, fields=[front, back], guid=genanki.guid_for(front)))
    media = tempfile.mkdtemp()
    try:
        cover = os.path.join(media, "gre-cover.png")
        with open(cover, "wb") as out:
            out.write(png(3, 3))
        genanki.Package(deck, media_files=[cover]).write_to_file(os.path.join(OUT, "genanki.apkg"))
    finally:
        shutil.rmtree(media)


def hostile_packages():
    with open(os.path.join(OUT, "anki-modern.apkg"), "rb") as source:
        modern = source.read()
    with open(os.path.join(OUT, "anki-truncated.apkg"), "wb") as out:
        out.write(modern[: len(modern) // 2])

    def package(name, entries, method=zipfile.ZIP_DEFLATED):
        with zipfile.ZipFile(os.path.join(OUT, name), "w", method) as out:
            for entry, data in entries:
                out.writestr(entry, data)

    # 300 MiB of zeros in a few hundred KiB: refused part-way, never unpacked.
    package("anki-bomb.apkg", [("collection.anki21", b"SQLite format 3\x00" + b"\x00" * (300 << 20))])
    zeros = os.path.join(tempfile.mkdtemp(), "zeros")
    with open(zeros, "wb") as out:
        out.write(b"SQLite format 3\x00" + b"\x00" * (300 << 20))
    frame = subprocess.run(["zstd", "-19", "-c", "-q", zeros], check=True, capture_output=True).stdout
    shutil.rmtree(os.path.dirname(zeros))
    package("anki-zstd-bomb.apkg", [("meta", b"\x08\x03"), ("collection.anki21b", frame)], zipfile.ZIP_STORED)
    with zipfile.ZipFile(os.path.join(OUT, "anki-legacy.apkg")) as legacy:
        collection = legacy.read("collection.anki21")
    package("anki-traversal.apkg", [("collection.anki21", collection), ("media", b'{"0": "../../evil.png"}'), ("0", png())])
    package("anki-not-sqlite.apkg", [("collection.anki21", b"this is not a database\n" * 100)])
    package("anki-meta-9.apkg", [("meta", b"\x08\x09"), ("collection.anki21b", b"")], zipfile.ZIP_STORED)
    damaged_collections()


def damaged_collections():
    """The legacy package with its collection lacking the review log, a column of the log, or
    the notes' note type column."""
    with zipfile.ZipFile(os.path.join(OUT, "anki-legacy.apkg")) as legacy:
        entries = [(name, legacy.read(name)) for name in legacy.namelist()]
    for name, change in [("anki-no-revlog.apkg", "DROP TABLE revlog"), ("anki-revlog-no-time.apkg", "ALTER TABLE revlog DROP COLUMN time"),
                         ("anki-notes-no-mid.apkg", "ALTER TABLE notes DROP COLUMN mid")]:
        work = tempfile.mkdtemp()
        try:
            path = os.path.join(work, "collection")
            with open(path, "wb") as out:
                out.write(dict(entries)["collection.anki21"])
            database = sqlite3.connect(path)
            database.execute(change)
            database.commit()
            database.close()
            with open(path, "rb") as source:
                changed = source.read()
            with zipfile.ZipFile(os.path.join(OUT, name), "w", zipfile.ZIP_DEFLATED) as out:
                for entry, data in entries:
                    out.writestr(entry, changed if entry == "collection.anki21" else data)
        finally:
            shutil.rmtree(work)


if __name__ == "__main__":
    anki_packages()
    genanki_package()
    hostile_packages()
