#!/usr/bin/env python3
"""Vocab's `export -o notes.txt` imported by Anki itself (PyPI `anki`): every word becomes a
Basic note in its book's deck with every field, and a second import updates the same notes
instead of adding new ones. Needs VOCAB_TEST_BINARY; run by scripts/test.sh."""
import os
import subprocess
import sys
import tempfile

from anki.collection import Collection
from anki.import_export_pb2 import CsvMetadata, ImportCsvRequest

VOCAB = os.environ["VOCAB_TEST_BINARY"]


def vocab(home, *arguments):
    env = dict(os.environ, VOCAB_HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"), VOCAB_BACKGROUND="off")
    return subprocess.run([VOCAB, *arguments], env=env, check=True, capture_output=True, text=True).stdout


def import_into(col, path):
    metadata = col.get_csv_metadata(path=path, delimiter=None)
    return col.import_csv(ImportCsvRequest(path=path, metadata=metadata))


def main():
    work = tempfile.mkdtemp()
    home = os.path.join(work, "vocab")
    vocab(home, "book", "add", "TOEIC 900")
    vocab(home, "word", "add", "abandon", "--book", "TOEIC 900", "--definition", "to leave\nbehind",
          "--detail", "He abandoned <the> car.", "--pronunciation", "əˈbændən", "--synonym", "desert", "--antonym", "keep")
    vocab(home, "word", "add", "사과", "--book", "TOEIC 900", "--definition", 'apple, "red"\tfruit')
    notes_txt = os.path.join(work, "notes.txt")
    vocab(home, "export", "--book", "TOEIC 900", "-o", notes_txt)

    col = Collection(os.path.join(work, "collection.anki2"))
    import_into(col, notes_txt)
    ids = col.find_notes("")
    assert len(ids) == 2, ids
    notes = {col.get_note(i)["Front"]: col.get_note(i) for i in ids}
    back = notes["abandon"]["Back"]
    for part in ["to leave<br>behind", "He abandoned &lt;the&gt; car.", "Pronunciation: əˈbændən", "Synonyms: desert", "Antonyms: keep"]:
        assert part in back, (part, back)
    assert 'apple, "red"' in notes["사과"]["Back"], notes["사과"]["Back"]
    deck = col.decks.name(col.get_card(notes["abandon"].card_ids()[0]).did)
    assert deck == "TOEIC 900", deck

    # Edit in Vocab, export again, import again: the same notes, updated.
    vocab(home, "word", "edit", "abandon", "--definition", "to give up")
    vocab(home, "export", "--book", "TOEIC 900", "-o", notes_txt)
    import_into(col, notes_txt)
    ids = col.find_notes("")
    assert len(ids) == 2, f"a second import duplicated notes: {len(ids)}"
    notes = {col.get_note(i)["Front"]: col.get_note(i) for i in ids}
    assert notes["abandon"]["Back"].startswith("to give up"), notes["abandon"]["Back"]
    col.close()
    print("Anki round trip: passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"Anki round trip FAILED: {error}", file=sys.stderr)
        sys.exit(1)
