import VocabCore

/// The tables of Anki's schema 11 (what `collection.anki2` holds), as Anki itself creates them:
/// written by `AnkiExport`, read by every Anki version since 2.1.
enum AnkiCollectionSchema {
    static let sql = tables + indexes

    /// The tables alone (a writer of many rows makes the indexes after them: sorted once).
    static let tables = """
        CREATE TABLE col (
            id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL, scm integer NOT NULL,
            ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL,
            conf text NOT NULL, models text NOT NULL, decks text NOT NULL, dconf text NOT NULL, tags text NOT NULL
        );
        CREATE TABLE notes (
            id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
            usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL, sfld integer NOT NULL,
            csum integer NOT NULL, flags integer NOT NULL, data text NOT NULL
        );
        CREATE TABLE cards (
            id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL,
            mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL,
            due integer NOT NULL, ivl integer NOT NULL, factor integer NOT NULL, reps integer NOT NULL,
            lapses integer NOT NULL, left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL,
            flags integer NOT NULL, data text NOT NULL
        );
        CREATE TABLE revlog (
            id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL,
            ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL,
            type integer NOT NULL
        );
        CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);

        """

    static let indexes = """
        CREATE INDEX ix_notes_usn ON notes (usn);
        CREATE INDEX ix_cards_usn ON cards (usn);
        CREATE INDEX ix_revlog_usn ON revlog (usn);
        CREATE INDEX ix_cards_nid ON cards (nid);
        CREATE INDEX ix_cards_sched ON cards (did, queue, due);
        CREATE INDEX ix_revlog_cid ON revlog (cid);
        CREATE INDEX ix_notes_csum ON notes (csum);
        """

    /// The note type every exported word uses: one field per word field, one card.
    static let noteTypeId: Int64 = 1_733_011_200_000
    static let noteTypeName = "Vocab word"
    static let fieldNames = ["Word", "Definition", "Detail", "Pronunciation", "Synonym", "Antonym"]

    static let front = """
        <div class="word">{{Word}}</div>
        {{#Pronunciation}}<div class="pronunciation">{{Pronunciation}}</div>{{/Pronunciation}}
        """
    static let back = """
        {{FrontSide}}
        <hr id="answer">
        <div class="definition">{{Definition}}</div>
        {{#Detail}}<div class="detail">{{Detail}}</div>{{/Detail}}
        {{#Synonym}}<div class="related">≈ {{Synonym}}</div>{{/Synonym}}
        {{#Antonym}}<div class="related">↔ {{Antonym}}</div>{{/Antonym}}
        """
    static let css = """
        .card { font-family: sans-serif; font-size: 20px; text-align: center; color: black; background-color: white; }
        .word { font-size: 32px; }
        .pronunciation, .related { color: #666; }
        .detail { font-size: 16px; margin-top: 12px; }
        """

    /// The "Vocab word" note type as schema 11 keeps it (`models` of `col`).
    static func noteType(modified: Int64, usn: Int64, defaultDeck: Int64) -> [String: Any] {
        let fields: [[String: Any]] = fieldNames.enumerated().map { index, name in
            ["name": name, "ord": index, "sticky": false, "rtl": false, "font": "Arial", "size": 20, "media": [String]()]
        }
        let template: [String: Any] = ["name": "Recall", "ord": 0, "qfmt": front, "afmt": back, "bqfmt": "", "bafmt": "",
                                       "did": JSONValue.null, "bfont": "", "bsize": 0]
        return [
            "id": noteTypeId, "name": noteTypeName, "type": 0, "mod": modified, "usn": usn, "sortf": 0, "did": defaultDeck,
            "tmpls": [template], "flds": fields, "css": css, "latexPre": "", "latexPost": "", "latexsvg": false,
            "req": [[0, "any", [0]]], "tags": [String](), "vers": [Int](),
        ]
    }

    /// The collection's configuration (`conf` of `col`). schedVer 2: without it Anki takes the
    /// log for its first scheduler's and renumbers the answers given while learning (3 → 4).
    /// `current`: with the scheduler every current Anki runs, with FSRS as Vocab schedules (for
    /// a collection an app syncs with: the app fills in its time zone at once, a change it syncs).
    static func configuration(nextPosition: Int, current: Bool = false) -> [String: Any] {
        var configuration: [String: Any] = [
            "schedVer": 2, "activeDecks": [1], "curDeck": 1, "newSpread": 0, "collapseTime": 1200, "timeLim": 0,
            "estTimes": true, "dueCounts": true, "curModel": String(noteTypeId), "nextPos": nextPosition, "sortType": "noteFld",
            "sortBackwards": false, "addToCur": true,
        ]
        if current {
            configuration["sched2021"] = true
            configuration["fsrs"] = true
        }
        return configuration
    }

    /// A deck as schema 11 keeps it.
    static func deck(id: Int64, name: String, description: String, modified: Int64, usn: Int64) -> [String: Any] {
        ["id": id, "name": name, "desc": description, "mod": modified, "usn": usn, "collapsed": false,
         "browserCollapsed": false, "dyn": 0, "conf": 1, "extendNew": 0, "extendRev": 0,
         "newToday": [0, 0], "revToday": [0, 0], "lrnToday": [0, 0], "timeToday": [0, 0]]
    }

    /// The options group decks point to (Anki's defaults).
    static var deckOptions: [String: Any] { [
        "id": 1, "name": "Default", "mod": 0, "usn": 0, "maxTaken": 60, "autoplay": true, "timer": 0, "replayq": true,
        "dyn": false,
        "new": ["bury": true, "delays": [1, 10], "initialFactor": 2500, "ints": [1, 4, 0], "order": 1, "perDay": 20],
        "rev": ["bury": true, "ease4": 1.3, "ivlFct": 1, "maxIvl": 36500, "perDay": 200, "hardFactor": 1.2],
        "lapse": ["delays": [10], "leechAction": 1, "leechFails": 8, "minInt": 1, "mult": 0],
    ] }
}
