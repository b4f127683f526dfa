-- Step to version 10: the collections of Anki's apps.
-- Anki's apps (version 10): the collection each learner's Anki apps sync with, kept beside
-- his records so that any server answers any call of a sync. Each object is a row the
-- servers read and write whole and never look into (its update number, its body as Anki's
-- wire carries it, the word, book or review it mirrors); `version` counts the writes, so a
-- server's copy asks only for what changed since; a removed object stays as a row without
-- `content` until every copy has dropped it. `bytes` counts against the account's byte cap.
CREATE TABLE IF NOT EXISTS vocab.anki_collections (
    owner   name PRIMARY KEY,
    version bigint NOT NULL DEFAULT 0,
    state   text,
    bytes   bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS vocab.anki_objects (
    owner   name NOT NULL,
    kind    text NOT NULL,
    id      text NOT NULL,
    version bigint NOT NULL,
    content text,
    PRIMARY KEY (owner, kind, id)
);
CREATE INDEX IF NOT EXISTS anki_objects_by_version ON vocab.anki_objects (owner, version, kind, id);
