#!/usr/bin/env python3
"""Vocab's `export -o book.apkg` imported by Anki itself (PyPI `anki`), and Anki's own export
imported back into Vocab: notes, every field, decks, the deck's cover, the review log and the
cards' scheduling survive both ways; a second export after an edit updates the same notes.
Needs VOCAB_TEST_BINARY; run by scripts/test.sh."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from anki.collection import Collection, ExportAnkiPackageOptions
from anki.import_export_pb2 import ImportAnkiPackageOptions, ImportAnkiPackageRequest

VOCAB = os.environ["VOCAB_TEST_BINARY"]
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "VocabCLITests", "Fixtures")


def vocab(home, *arguments):
    env = dict(os.environ, VOCAB_HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"), VOCAB_BACKGROUND="off")
    return subprocess.run([VOCAB, *arguments], env=env, check=True, capture_output=True, text=True).stdout


def vocab_words(home):
    """Every word with its fields, book and review count, by word text."""
    words = {}
    for word in json.loads(vocab(home, "word", "list", "--json")):
        shown = json.loads(vocab(home, "word", "show", word["id"], "--json"))
        schedule = shown.get("schedule") or {}
        words[word["word"]] = ({key: word[key] for key in ["book", "definition", "detail", "pronunciation", "synonym", "antonym"]},
                               schedule.get("reviews", 0), schedule.get("due"))
    return words


def import_into(col, path):
    options = ImportAnkiPackageOptions(with_scheduling=True, merge_notetypes=True)
    return col.import_anki_package(ImportAnkiPackageRequest(package_path=path, options=options))


def main():
    work = tempfile.mkdtemp()
    try:
        home = os.path.join(work, "vocab")
        # A store with history and a cover (from Anki's own export) and a word using every field.
        vocab(home, "import", os.path.join(FIXTURES, "anki-modern.apkg"))
        vocab(home, "word", "add", "abundant", "--book", "TOEIC", "--definition", "plentiful\n풍부한",
              "--detail", "Water is <abundant> & cheap.", "--pronunciation", "əˈbʌndənt", "--synonym", "ample", "--antonym", "scarce")
        before = vocab_words(home)
        package = os.path.join(work, "vocab.apkg")
        vocab(home, "export", "-o", package)

        os.makedirs(os.path.join(work, "anki"))
        col = Collection(os.path.join(work, "anki", "collection.anki2"))
        import_into(col, package)
        ids = col.find_notes("")
        assert len(ids) == 6, ids
        notes = {col.get_note(i)["Word"]: col.get_note(i) for i in ids}
        abundant = notes["abundant"]
        assert abundant.note_type()["name"] == "Vocab word", abundant.note_type()["name"]
        assert abundant["Definition"] == "plentiful<br>풍부한", ascii(abundant["Definition"])
        assert abundant["Detail"] == "Water is &lt;abundant&gt; &amp; cheap.", abundant["Detail"]
        assert (abundant["Pronunciation"], abundant["Synonym"], abundant["Antonym"]) == ("əˈbʌndənt", "ample", "scarce")
        assert sorted(notes["abandon"].tags) == ["exam", "verb"], notes["abandon"].tags
        assert notes["abandon"]["Detail"] == "", "the tags line went back to being tags"
        card = col.get_card(notes["abandon"].card_ids()[0])
        assert col.decks.name(card.did) == "TOEIC::Verbs", col.decks.name(card.did)
        assert card.type == 2 and card.reps == 4, (card.type, card.reps)
        reviews = col.db.scalar("select count() from revlog")
        assert reviews == 10, reviews
        toeic = col.decks.by_name("TOEIC")
        assert "Words for the TOEIC test." in toeic["desc"] and "<img" in toeic["desc"], toeic["desc"]
        cover = toeic["desc"].split('src="')[1].split('"')[0]
        assert os.path.exists(os.path.join(col.media.dir(), cover)), cover
        html = col.get_card(abundant.card_ids()[0]).answer()
        assert "plentiful" in html and "ample" in html, html

        # Edit in Vocab, export again, import again: the same notes, updated, no review twice.
        # (Anki updates a note whose modification time, in whole seconds, is newer: the edit
        # must fall in a later second than the first export.)
        time.sleep(1.1)
        vocab(home, "word", "edit", "abundant", "--definition", "more than enough")
        vocab(home, "export", "-o", package)
        import_into(col, package)
        assert len(col.find_notes("")) == 6, "a second import duplicated notes"
        assert col.get_note(abundant.id)["Definition"] == "more than enough", col.get_note(abundant.id)["Definition"]
        assert col.db.scalar("select count() from revlog") == 10
        before["abundant"][0]["definition"] = "more than enough"

        # Anki's own (current) export, imported into a new Vocab store: nothing lost.
        exported = os.path.join(work, "from-anki.apkg")
        col.export_anki_package(out_path=exported, options=ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=False, with_media=True, legacy=False), limit=None)
        col.close()
        again = os.path.join(work, "again")
        output = vocab(again, "import", exported)
        assert "6 added" in output, output
        after = vocab_words(again)
        assert after.keys() == before.keys(), (sorted(after), sorted(before))
        for word, (fields, reviews, due) in before.items():
            assert after[word][0] == fields, (word, after[word][0], fields)
            assert after[word][1] == reviews, (word, after[word][1], reviews)
            assert after[word][2] == due, (word, after[word][2], due)
        # (Anki's exporter leaves out media no note uses, so the cover stays in Anki's media folder.)
        book = vocab(again, "book", "show", "TOEIC")
        assert "Words for the TOEIC test." in book, book
        print("Anki package round trip: passed")
    finally:
        if os.environ.get("KEEP"): print(work)
        else: shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
