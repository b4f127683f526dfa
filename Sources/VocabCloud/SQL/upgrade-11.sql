-- Step to version 11: the media files of Anki's apps.
-- Anki's apps' media (version 11): each file's name with the SHA-1 of its content ('' once
-- deleted: the row stays, so the learner's other apps learn of it) and the update number it
-- was written at; the contents once each per learner, by SHA-1. `media_usn` is the latest
-- number, `media_bytes` what the contents hold (against the account's byte cap, with `bytes`).
ALTER TABLE vocab.anki_collections ADD COLUMN IF NOT EXISTS media_usn bigint NOT NULL DEFAULT 0;
ALTER TABLE vocab.anki_collections ADD COLUMN IF NOT EXISTS media_bytes bigint NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS vocab.anki_media (
    owner name NOT NULL,
    name  text NOT NULL,
    sha1  text NOT NULL,
    size  bigint NOT NULL,
    usn   bigint NOT NULL,
    PRIMARY KEY (owner, name)
);
CREATE INDEX IF NOT EXISTS anki_media_by_usn ON vocab.anki_media (owner, usn);
CREATE TABLE IF NOT EXISTS vocab.anki_media_files (
    owner name NOT NULL,
    sha1  text NOT NULL,
    data  bytea NOT NULL,
    PRIMARY KEY (owner, sha1)
);
