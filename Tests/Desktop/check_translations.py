"""Every string the window passes through tr("..."), every sentence a layer says (Sentence("...")),
and every string the web page translates
(t("...") in its script, data-t, data-t-label and data-t-placeholder in its HTML) has a Korean
translation in Sources/VocabCatalog/Translations/ko.po, and the catalogue has no string that
neither uses any more."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2]
used = set()
for path in [*(root / "Sources" / "VocabDesktop").rglob("*.swift"), *(root / "Sources" / "VocabWording").rglob("*.swift")]:
    for match in re.finditer(r'\btr\("((?:[^"\\]|\\.)*)"', path.read_text()):
        used.add(match.group(1).encode().decode("unicode_escape").encode("latin-1").decode("utf-8"))
# What the layers say of a failure, once, as a Sentence whose format is the catalogue's key.
for path in (root / "Sources").rglob("*.swift"):
    for match in re.finditer(r'\bSentence\("((?:[^"\\]|\\.)*)"', path.read_text()):
        if match.group(1) != "%@":
            used.add(match.group(1).replace('\\"', '"'))
pages = root / "Sources" / "VocabWeb" / "Pages"
web = "\n".join(path.read_text() for path in sorted(pages.iterdir()) if path.suffix in (".js", ".html"))
for match in re.finditer(r'\bt\("((?:[^"\\]|\\.)*)"|data-t(?:-label|-placeholder)?="([^"]*)"', web):
    used.add(match.group(1) if match.group(1) is not None else match.group(2))
for name in re.findall(r'(\w+): "(Again|Hard|Good|Easy)"', web):
    used.add(name[1])
# The servers' refusals the page shows through t(data.error): each one that names nothing
# (the server of one learner's in VocabWeb, the server of many's in VocabServer).
for path in [*(root / "Sources" / "VocabWeb").glob("*.swift"), *(root / "Sources" / "VocabServer").glob("*.swift")]:
    for message in re.findall(r'(?:WebProblem\(status: \d+, message: |signedOut\()"((?:[^"\\]|\\")*)"', path.read_text()):
        if "\\(" not in message:
            used.add(message.replace('\\"', '"'))
catalogue = {}
text = (root / "Sources" / "VocabCatalog" / "Translations" / "ko.po").read_text()
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
