"""Every string the window passes through tr("...") has a Korean translation in
Sources/VocabDesktop/Translations/ko.po, and the catalogue has no string the window no longer uses."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2]
sources = root / "Sources" / "VocabDesktop"
used = set()
for path in sources.rglob("*.swift"):
    for match in re.finditer(r'\btr\("((?:[^"\\]|\\.)*)"', path.read_text()):
        used.add(match.group(1).encode().decode("unicode_escape").encode("latin-1").decode("utf-8"))
catalogue = {}
text = (sources / "Translations" / "ko.po").read_text()
for match in re.finditer(r'^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"', text, re.M):
    catalogue[match.group(1).replace('\\"', '"')] = match.group(2)
missing = sorted(s for s in used if not catalogue.get(s))
unused = sorted(s for s in catalogue if s and s not in used)
for s in missing:
    print(f"ko.po lacks a translation of: {s!r}")
for s in unused:
    print(f"ko.po translates a string the window no longer uses: {s!r}")
print(f"Translations: {len(used)} strings, {len(missing)} missing, {len(unused)} unused")
sys.exit(1 if missing or unused else 0)
