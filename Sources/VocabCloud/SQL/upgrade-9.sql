-- Step to version 9: names from the time learners and devices were database roles go. A
-- device's id is `id` (it was `role`), and the sequence that numbered every learner's
-- changes before version 4 (each learner has a counter of his own since) is dropped.
ALTER TABLE vocab.devices RENAME COLUMN role TO id;
-- Its result's first column was `role` (a result is not replaced in place); a cloud
-- upgraded from before version 8 has no such function yet.
DROP FUNCTION IF EXISTS vocab.my_devices(name, text);
DROP SEQUENCE IF EXISTS vocab.change_seq;
