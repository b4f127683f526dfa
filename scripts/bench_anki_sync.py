#!/usr/bin/env python3
"""The client's side of `vocab-bench anki-sync`, with Anki's own Python package (PyPI `anki`,
the Rust core AnkiDroid and Anki desktop run), against one sync server (Vocab's or Anki's own):

  bench_anki_sync.py login ENDPOINT USER PASSWORD FOLDER
      signs a client in (its key kept in FOLDER/auth.json: a pairing code pairs once)
  bench_anki_sync.py upload ENDPOINT PACKAGE FOLDER
      imports PACKAGE into the signed-in client's new collection and uploads it whole (a full
      upload, timed); then syncs once more, untimed, which must find nothing to do; prints
      {"upload": seconds}
  bench_anki_sync.py download ENDPOINT FOLDER
      the signed-in client's empty collection asks and downloads the account (timed together);
      prints {"download": seconds, "notes": count}
  bench_anki_sync.py round ENDPOINT WORK CHANGES
      with clients WORK/one and WORK/two signed in: the first, empty, asks and downloads the
      account (the first full download: the asking and the download timed together); the
      second does the same, untimed; then, five times over, CHANGES new notes synced up from the
      first (timed), CHANGES from the second (untimed) and the first syncs them down (timed);
      prints one JSON object of seconds (each way the median of the five, and all of them) and
      counts (`arrived`: the fewest notes that came down in a turn)

Every figure is timed around the client's call alone (Python's start and Anki's loading
aside). The notes added are of the note type the download's notes mostly have.
"""
import json
import os
import statistics
import sys
import time

from anki.collection import AddNoteRequest, Collection
from anki.import_export_pb2 import ImportAnkiPackageOptions, ImportAnkiPackageRequest
from anki.sync_pb2 import SyncAuth

# Normal syncs timed each way; the median is the figure.
ROUNDS = 5


def timed(work):
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def signed_in(folder, endpoint):
    col = Collection(os.path.join(folder, "collection.anki2"))
    with open(os.path.join(folder, "auth.json")) as f:
        return col, SyncAuth(hkey=json.load(f)["key"], endpoint=endpoint)


def download(col, auth):
    def work():
        out = col.sync_collection(auth, False)
        if out.required != out.FULL_DOWNLOAD:
            raise SystemExit(f"an empty collection was not told to download: {out.required}")
        col.close_for_full_sync()
        try:
            col.full_upload_or_download(auth=auth, server_usn=None, upload=False)
        finally:
            col.reopen(after_full_sync=True)
    return timed(work)[0]


def add_notes(col, count, tag):
    counts = col.db.all("select mid, count(*) from notes group by mid order by 2 desc")
    model = col.models.get(counts[0][0]) if counts else col.models.by_name("Basic")
    deck = col.db.scalar("select did from cards limit 1") or 1
    requests = []
    for i in range(count):
        note = col.new_note(model)
        note.fields[0] = f"{tag} word {i}"
        note.fields[1] = f"{tag} meaning {i}"
        requests.append(AddNoteRequest(note=note, deck_id=deck))
    col.add_notes(requests)


def wait_past_ids(*cols):
    """Waits, untimed, until the clock is past every note and card id the collections hold.

    Anki makes a new note's (and card's) id from the clock, but one the collection holds
    already becomes its largest id + 1: a collection made within the last minute holds ids
    ahead of the clock (50,000 notes made at once take 50 s of them), so two clients adding
    notes then take the same ids, which a sync reads as one note changed (in the same second,
    the server's kept: once, none of the second client's notes arrived)."""
    latest = max(col.db.scalar("select max(coalesce((select max(id) from notes), 0), "
                               "coalesce((select max(id) from cards), 0))") or 0 for col in cols)
    ahead = latest / 1000 + 1 - time.time()
    if ahead > 0:
        time.sleep(ahead)


def normal_sync(col, auth):
    def work():
        out = col.sync_collection(auth, False)
        if out.required not in (out.NO_CHANGES, out.NORMAL_SYNC):
            raise SystemExit(f"a normal sync was not possible: {out.required}")
    return timed(work)[0]


def main():
    command, endpoint = sys.argv[1:3]
    if command == "login":
        user, password, folder = sys.argv[3:6]
        os.makedirs(folder, exist_ok=True)
        col = Collection(os.path.join(folder, "collection.anki2"))
        auth = col.sync_login(user, password, endpoint)
        col.close()
        with open(os.path.join(folder, "auth.json"), "w") as f:
            json.dump({"key": auth.hkey}, f)
        return
    if command == "upload":
        package, folder = sys.argv[3:5]
        col, auth = signed_in(folder, endpoint)
        col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=ImportAnkiPackageOptions(
            with_scheduling=True, merge_notetypes=True)))
        col.sync_collection(auth, False)

        def work_upload():
            col.close_for_full_sync()
            try:
                col.full_upload_or_download(auth=auth, server_usn=None, upload=True)
            finally:
                col.reopen(after_full_sync=True)
        seconds = timed(work_upload)[0]
        # Untimed: a normal sync after, once the server has taken the upload in (it may answer
        # first, as Anki's own server does), which finds nothing to do.
        out = col.sync_collection(auth, False)
        if out.required != out.NO_CHANGES:
            raise SystemExit(f"a sync after the upload found work to do: {out.required}")
        print(json.dumps({"upload": seconds}))
        col.close()
        return
    if command == "download":
        folder = sys.argv[3]
        col, auth = signed_in(folder, endpoint)
        seconds = download(col, auth)
        print(json.dumps({"download": seconds, "notes": col.note_count()}))
        col.close()
        return
    work, changes = sys.argv[3], int(sys.argv[4])
    one, auth_one = signed_in(os.path.join(work, "one"), endpoint)
    first = download(one, auth_one)
    notes = one.note_count()
    revlog = one.db.scalar("select count(*) from revlog")
    size = os.path.getsize(os.path.join(work, "one", "collection.anki2"))
    two, auth_two = signed_in(os.path.join(work, "two"), endpoint)
    download(two, auth_two)
    normal_sync(one, auth_one)  # the changes the first open made (its time zone), untimed
    normal_sync(two, auth_two)
    ups, downs, arrived = [], [], []
    for turn in range(ROUNDS):
        wait_past_ids(one, two)
        add_notes(one, changes, f"up{turn}")
        ups.append(normal_sync(one, auth_one))
        # Note ids are times in ms, each past the collection's last: the first client's may run
        # ahead of the clock, and a second client's made within that time would take the same ids
        # (which a sync then reads as one note changed). Wait it out, untimed.
        time.sleep(changes / 1000 + 0.5)
        add_notes(two, changes, f"down{turn}")
        normal_sync(two, auth_two)
        downs.append(normal_sync(one, auth_one))
        arrived.append(one.db.scalar(f"select count(*) from notes where flds like 'down{turn} word %'"))
        normal_sync(two, auth_two)  # the first client's notes, untimed, before the next turn
    # Each way, the median of the turns (a single sync varied by half from run to run).
    print(json.dumps({"download": first, "notes": notes, "revlog": revlog, "bytes": size,
                      "up": statistics.median(ups), "down": statistics.median(downs),
                      "ups": ups, "downs": downs, "arrived": min(arrived)}))
    one.close()
    two.close()


if __name__ == "__main__":
    main()
