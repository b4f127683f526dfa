#!/usr/bin/env python3
"""Makes the import fixtures in Tests/VocabCLITests/Fixtures with the real tools:

- Anki's own plain-text exports (PyPI `anki`): notes with and without HTML, and cards, from a
  collection holding Basic notes (Korean, HTML, tags, a tab and quotes inside fields, a subdeck)
  and a Cloze note with a [sound:] reference.
- Quizlet-style lists: term and definition per line, tab-separated (Quizlet's default) and with
  the custom " - " / ";" separators its export dialog offers.
- Excel workbooks (PyPI `openpyxl`): a header row, Korean, numbers, dates, empty and merged
  cells, shared and inline strings, a second sheet; and hostile ones: a zip bomb and XML with
  a DTD (entity expansion).

Run it in a virtual environment that has them:
  python3 -m venv /tmp/fx && /tmp/fx/bin/pip install anki openpyxl && /tmp/fx/bin/python scripts/make_import_fixtures.py
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


def shared_strings(source_path, target_path):
    """openpyxl writes every string inline; Excel and LibreOffice put them in the shared string
    table. This moves the plain ones there (the rich one stays inline, so both kinds are read),
    adds a phonetic run (rPh, which readers must skip) to one, and registers the part."""
    import re
    import zipfile
    strings = []

    def share(match):
        strings.append(match.group(3))
        return f'<c r="{match.group(1)}"{match.group(2) or ""} t="s"><v>{len(strings) - 1}</v></c>'

    with zipfile.ZipFile(source_path) as source, zipfile.ZipFile(target_path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml" or item.filename == "xl/worksheets/sheet2.xml":
                data = re.sub(r'<c r="(\w+)"( s="\d+")? t="inlineStr"><is><t(?: xml:space="preserve")?>([^<]*)</t></is></c>',
                              share, data.decode()).encode()
            elif item.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                                    b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
            elif item.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rIdStrings" Type="http://schemas.openxmlformats.org/'
                                    b'officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
            out.writestr(item, data)
        items = "".join(f"<si><t>{text}</t></si>" if text != "버리다" else
                        f'<si><t>{text}</t><rPh sb="0" eb="3"><t>beorida</t></rPh></si>' for text in strings)
        out.writestr("xl/sharedStrings.xml", '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/'
                     f'spreadsheetml/2006/main" count="{len(strings)}" uniqueCount="{len(strings)}">{items}</sst>')


def workbooks():
    import datetime
    import zipfile
    from openpyxl import Workbook
    from openpyxl.cell.rich_text import CellRichText, TextBlock
    from openpyxl.cell.text import InlineFont

    book = Workbook()
    sheet = book.active
    sheet.title = "단어"
    sheet.append(["Word", "뜻", "Example", "Date added", "Count"])
    sheet.append(["abandon", "버리다", "He abandoned the car.", datetime.date(2025, 3, 1), 3])
    sheet.append(["apple", "사과", None, datetime.datetime(2025, 3, 2, 14, 30), 2.5])
    sheet.append(["merged", "병합된 칸", "one", None, None])
    sheet.merge_cells("C4:E4")
    sheet.append([None, None, None, None, None])  # an empty row
    sheet.append(["rich", CellRichText([TextBlock(InlineFont(b=True), "굵은"), " 글씨"]), "", None, 0])
    sheet.append([42, "the answer", None, None, None])
    other = book.create_sheet("Verbs")
    other.append(["word", "definition"])
    other.append(["run", "달리다"])
    written = os.path.join(OUT, "words-inline.xlsx")
    book.save(written)
    shared_strings(written, os.path.join(OUT, "words.xlsx"))
    os.remove(written)

    # A zip bomb: a sheet that unpacks to 160 MiB from a few hundred KiB (past the 128 MiB a small file may unpack to).
    bomb = os.path.join(OUT, "bomb.xlsx")
    with zipfile.ZipFile(os.path.join(OUT, "words.xlsx")) as source, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            if item.filename == "xl/worksheets/sheet1.xml":
                with out.open(item.filename, "w", force_zip64=True) as sheet_xml:
                    sheet_xml.write(b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
                    block = b"<row/>" * ((1 << 20) // 6)  # empty rows: read and skipped, never held
                    for _ in range(160):
                        sheet_xml.write(block)
                    sheet_xml.write(b"</sheetData></worksheet>")
            else:
                out.writestr(item, source.read(item.filename))

    # Billion laughs: shared strings that declare nested entities.
    laughs = os.path.join(OUT, "laughs.xlsx")
    entities = '<!DOCTYPE sst [<!ENTITY a "ha">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9)) + "]>"
    with zipfile.ZipFile(os.path.join(OUT, "words.xlsx")) as source, zipfile.ZipFile(laughs, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/sharedStrings.xml":
                text = data.decode()
                head, rest = text.split("?>", 1)
                text = head + "?>" + entities.replace("sst", "sst", 1) + rest.replace("<t>abandon</t>", "<t>&j;</t>", 1)
                data = text.encode()
            out.writestr(item, data)


if __name__ == "__main__":
    import sys
    os.makedirs(OUT, exist_ok=True)
    parts = sys.argv[1:] or ["anki", "quizlet", "xlsx"]  # e.g. `… xlsx` remakes only the workbooks
    if "anki" in parts:
        anki_exports()
    if "quizlet" in parts:
        quizlet_lists()
    if "xlsx" in parts:
        workbooks()
    print("fixtures written to", os.path.normpath(OUT))
