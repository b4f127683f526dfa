#!/usr/bin/env python3
"""Makes the import fixtures in Tests/VocabCLITests/Fixtures with the real tools:

- Anki's own plain-text exports (PyPI `anki`): notes with and without HTML, and cards, from a
  collection holding Basic notes (Korean, HTML, tags, a tab and quotes inside fields, a subdeck)
  and a Cloze note with a [sound:] reference.
- Quizlet-style lists: term and definition per line, tab-separated (Quizlet's default) and with
  the custom " - " / ";" separators its export dialog offers.

Run it in a virtual environment that has them:
  python3 -m venv /tmp/fx && /tmp/fx/bin/pip install anki && /tmp/fx/bin/python scripts/make_import_fixtures.py
"""
import os
import shutil
import tempfile

from anki.collection import Collection

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "VocabCLITests", "Fixtures")


def anki_exports():
    work = tempfile.mkdtemp()
    try:
        col = Collection(os.path.join(work, "collection.anki2"))
        basic = col.models.by_name("Basic")
        verbs = col.decks.id("TOEIC::Verbs")
        nouns = col.decks.id("TOEIC")
        note = col.new_note(basic)
        note["Front"] = "abandon"
        note["Back"] = "to leave <b>behind</b><br>버리다 &amp; 포기하다"
        note.tags = ["exam", "verb"]
        col.add_note(note, verbs)
        note = col.new_note(basic)
        note["Front"] = "사과"
        note["Back"] = "apple<div>a red \"fruit\"</div>"
        col.add_note(note, nouns)
        note = col.new_note(basic)
        note["Front"] = "tab\there"
        note["Back"] = 'quote " and, comma'
        col.add_note(note, nouns)
        cloze = col.models.by_name("Cloze")
        note = col.new_note(cloze)
        note["Text"] = "The {{c1::cat::animal}} sat on the mat [sound:cat.mp3]"
        col.add_note(note, verbs)
        common = dict(limit=None, with_tags=True, with_deck=True, with_notetype=True, with_guid=True)
        col.export_note_csv(out_path=os.path.join(OUT, "anki-notes-html.txt"), with_html=True, **common)
        col.export_note_csv(out_path=os.path.join(OUT, "anki-notes-plain.txt"), with_html=False, **common)
        col.export_card_csv(out_path=os.path.join(OUT, "anki-cards.txt"), limit=None, with_html=True)
        col.close()
    finally:
        shutil.rmtree(work)


def quizlet_lists():
    rows = [("abandon", "버리다, 포기하다"), ("apple", "사과"), ("run", "달리다 - 뛰다")]
    with open(os.path.join(OUT, "quizlet-tab.txt"), "w", encoding="utf-8") as out:
        out.write("".join(f"{term}\t{definition}\n" for term, definition in rows))
    # Custom separators: " - " between term and definition, ";" between rows. A definition
    # holding " - " is quoted, as the import's documented quoting rules say.
    with open(os.path.join(OUT, "quizlet-custom.txt"), "w", encoding="utf-8") as out:
        out.write(";".join(f'{term} - "{d}"' if " - " in d else f"{term} - {d}" for term, d in rows))


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    anki_exports()
    quizlet_lists()
    print("fixtures written to", os.path.normpath(OUT))
