-- Step to version 12: backups of an account.
-- Backups of an account (version 12): the words a whole Anki collection's upload deleted, as
-- an Anki package with their reviews (the server writes it before the deletion), so that the
-- learner can bring them back. The newest {{backups_per_account}} of an account are kept, each
-- no larger than the account's byte cap; they are not counted in it.
CREATE TABLE IF NOT EXISTS vocab.account_backups (
    owner   name NOT NULL,
    id      uuid NOT NULL,
    taken   timestamptz NOT NULL DEFAULT now(),
    reason  text NOT NULL,
    words   integer NOT NULL,
    package bytea NOT NULL,
    PRIMARY KEY (owner, id)
);
