DO $$ BEGIN
    CREATE ROLE vocab_server NOLOGIN;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
-- What the server tier is held to, whatever a server asks: no statement, lock wait or
-- open transaction lasts long, and temporary files are bounded (a superuser-only
-- setting, so no server can lift it).
ALTER ROLE vocab_server SET statement_timeout = '60s';
ALTER ROLE vocab_server SET lock_timeout = '10s';
ALTER ROLE vocab_server SET idle_in_transaction_session_timeout = '60s';
ALTER ROLE vocab_server SET temp_file_limit = '256MB';
