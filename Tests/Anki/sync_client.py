"""Anki's own sync client (PyPI `anki`: the Rust core AnkiDroid and Anki desktop run) driven
against a Vocab server, for the end-to-end tests. Each step prints one JSON line; a step that
fails prints {"error": ..., "kind": ...} and the script exits 1.

    sync_client.py --endpoint http://127.0.0.1:PORT/anki/ --collection DIR/collection.anki2 \
        [--user U --password P] [--auth FILE] STEP...

Steps: login (signs in, keeps the key in --auth), sync (a normal sync when one is needed:
what the server said), download (a full download), upload (a full upload), media (a media
sync), status (what a sync would do, asked without syncing: 0 nothing, 1 a normal sync, 2 a
full one), dump (the collection's decks, notes, cards and review log), check (Anki's own check of
the collection), and changes a learner makes in the app:
    add:DECK:WORD:DEFINITION   a "Vocab word" note in DECK
    basic:DECK:FRONT:BACK      a Basic note (of Anki's own types; they become words by their
    reversed:DECK:FRONT:BACK   fields' names, as the .apkg import makes them)
    cloze:DECK:TEXT:EXTRA      a Cloze note (TEXT with {{c1##…}}: ## stands for ::)
    edit:WORD:FIELD:TEXT       sets FIELD of the note whose Word (or Front) is WORD
    remove:WORD                deletes that note
    answer:WORD:EASE           answers that note's first card (1 again ... 4 easy)
    file:NAME:TEXT             a media file NAME holding TEXT
    blob:NAME:SIZE             a media file NAME of SIZE bytes of a picture's kind (no pattern)
    unfile:NAME                deletes the media file NAME
and files (the media folder's files with their SHA-1).
"""
import argparse
import hashlib
import json
import os
import sys

from anki.collection import Collection
from anki.sync_pb2 import SyncAuth


def dump(col):
    models = {m["id"]: m for m in col.models.all()}
    notes = []
    for nid in col.db.list("select id from notes order by id"):
        note = col.get_note(nid)
        model = models[note.mid]
        notes.append({
            "guid": note.guid,
            "type": model["name"],
            "fields": dict(zip([f["name"] for f in model["flds"]], note.fields)),
            "tags": note.tags,
        })
    cards = [
        {"guid": guid, "deck": col.decks.name(did), "type": ctype, "queue": queue, "due": due, "ivl": ivl,
         "reps": reps, "lapses": lapses}
        for guid, did, ctype, queue, due, ivl, reps, lapses in col.db.all(
            "select n.guid, c.did, c.type, c.queue, c.due, c.ivl, c.reps, c.lapses from cards c join notes n on n.id = c.nid order by n.guid, c.ord")
    ]
    revlog = [
        {"guid": guid, "id": rid, "ease": ease}
        for guid, rid, ease in col.db.all(
            "select n.guid, r.id, r.ease from revlog r join cards c on c.id = r.cid join notes n on n.id = c.nid order by r.id")
    ]
    decks = sorted(d.name for d in col.decks.all_names_and_ids() if d.name != "Default")
    orphans = col.db.scalar("select count() from cards where nid not in (select id from notes)")
    # Note types and deck options whole (but for when and where they were last synced).
    def settled(objects):
        return sorted(({k: v for k, v in o.items() if k not in ("usn", "mod")} for o in objects), key=lambda o: o["name"])
    return {"decks": decks, "notes": notes, "cards": cards, "revlog": revlog, "orphans": orphans,
            "models": settled(col.models.all()), "options": settled(col.decks.all_config()),
            "check": col.db.scalar("pragma integrity_check")}


def find_note(col, word):
    for nid in col.db.list("select id from notes order by id"):
        note = col.get_note(nid)
        if note.fields and note.fields[0] == word:
            return note
    raise SystemExit(f"no note {word}")


def change(col, step):
    name, *args = step.split(":")
    if name in ("add", "basic", "reversed", "cloze"):
        deck, first, second = args
        import anki.stdmodels as stock
        model_name, make = {
            "add": ("Vocab word", None),
            "basic": ("Basic", stock._legacy_add_basic_model),
            "reversed": ("Basic (and reversed card)", stock._legacy_add_forward_reverse),
            "cloze": ("Cloze", stock._legacy_add_cloze_model),
        }[name]
        model = col.models.by_name(model_name) or make(col)
        note = col.new_note(model)
        note.fields[0], note.fields[1] = first.replace("##", "::"), second
        col.add_note(note, col.decks.id(deck))
        return {"guid": note.guid, "cards": len(note.cards())}
    if name == "edit":
        word, field, text = args
        note = find_note(col, word)
        note[field] = text
        col.update_note(note)
        return {"guid": note.guid}
    if name == "remove":
        note = find_note(col, args[0])
        col.remove_notes([note.id])
        return {"guid": note.guid}
    if name == "answer":
        word, ease = args
        card = find_note(col, word).cards()[0]
        card.start_timer()
        col.sched.answerCard(card, int(ease))
        return {"guid": card.note().guid}
    if name == "file":
        fname, text = args
        return {"name": col.media.write_data(fname, text.encode())}
    if name == "blob":
        fname, size = args
        data, seed = bytearray(), hashlib.sha256(fname.encode()).digest()
        while len(data) < int(size):
            seed = hashlib.sha256(seed).digest()
            data += seed
        return {"name": col.media.write_data(fname, bytes(data[: int(size)]))}
    if name == "unfile":
        col.media.trash_files([args[0]])
        return {"name": args[0]}
    return None


def media_files(col):
    folder = col.media.dir()
    return {
        name: hashlib.sha1(open(os.path.join(folder, name), "rb").read()).hexdigest()
        for name in sorted(os.listdir(folder))
        if os.path.isfile(os.path.join(folder, name))
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--user", default="")
    parser.add_argument("--password", default="")
    parser.add_argument("--auth", help="where the key is kept between runs")
    parser.add_argument("steps", nargs="+")
    args = parser.parse_args()

    os.makedirs(os.path.dirname(os.path.abspath(args.collection)), exist_ok=True)
    col = Collection(args.collection)
    auth = None
    if args.auth:
        try:
            with open(args.auth) as f:
                kept = json.load(f)
            auth = SyncAuth(hkey=kept["key"], endpoint=args.endpoint)
        except FileNotFoundError:
            pass
    server_usn = None
    status = 0
    try:
        for step in args.steps:
            if step == "login":
                auth = col.sync_login(args.user, args.password, args.endpoint)
                if args.auth:
                    with open(args.auth, "w") as f:
                        json.dump({"key": auth.hkey}, f)
                print(json.dumps({"step": step, "signed_in": bool(auth.hkey)}))
            elif step == "sync":
                out = col.sync_collection(auth, False)
                server_usn = out.server_media_usn
                print(json.dumps({"step": step, "required": out.required, "message": out.server_message}))
            elif step in ("download", "upload"):
                col.close_for_full_sync()
                try:
                    col.full_upload_or_download(auth=auth, server_usn=server_usn, upload=step == "upload")
                finally:
                    col.reopen(after_full_sync=True)
                print(json.dumps({"step": step, "done": True}))
            elif step == "media":
                col.sync_media(auth)
                import time
                while col.media_sync_status().active:
                    time.sleep(0.05)
                col.media_sync_status()  # raises what ended it, if it failed
                print(json.dumps({"step": step, "done": True}))
            elif step == "files":
                print(json.dumps({"step": step, "files": media_files(col)}, ensure_ascii=False))
            elif step == "status":
                print(json.dumps({"step": step, "required": col.sync_status(auth).required}))
            elif step == "check":
                problems, ok = col.fix_integrity()
                print(json.dumps({"step": step, "problems": problems, "ok": ok}))
            elif change_made := change(col, step) if ":" in step else None:
                print(json.dumps({"step": step.split(":")[0], **change_made}))
            elif step == "dump":
                print(json.dumps({"step": step, **dump(col)}, ensure_ascii=False))
            else:
                raise SystemExit(f"unknown step {step}")
    except Exception as error:  # the client's refusal, as the test reads it
        print(json.dumps({"step": step, "error": str(error), "kind": type(error).__name__}))
        status = 1
    finally:
        if col.db:
            col.close()
    sys.exit(status)


main()
