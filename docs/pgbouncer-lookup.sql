-- PgBouncer looks up Vocab's users and device roles (each device of a learner is a role of its
-- own) through this function, run as a dedicated lookup user — never the superuser, as
-- PgBouncer's documentation recommends. Run it as the administrator in the cloud's database,
-- after `vocab cloud init`, and set the lookup user's password with \password vocab_pgbouncer.
-- It answers only for Vocab's roles: the administrator connects to PostgreSQL directly.
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'vocab_pgbouncer') THEN
        CREATE ROLE vocab_pgbouncer LOGIN;
    END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS pgbouncer;
REVOKE ALL ON SCHEMA pgbouncer FROM PUBLIC;
GRANT USAGE ON SCHEMA pgbouncer TO vocab_pgbouncer;
-- No row for a name it does not answer for (a function returning one record would give a row
-- of nulls instead).
DROP FUNCTION IF EXISTS pgbouncer.user_lookup(text);
CREATE FUNCTION pgbouncer.user_lookup(i_username text)
RETURNS TABLE (uname text, phash text) LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog AS $$
    SELECT usename::text, passwd FROM pg_catalog.pg_shadow
    WHERE usename = i_username AND usename <> 'vocab_user'
      AND pg_catalog.pg_has_role(usesysid, 'vocab_user', 'MEMBER') AND NOT usesuper
$$;
REVOKE ALL ON FUNCTION pgbouncer.user_lookup(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pgbouncer.user_lookup(text) TO vocab_pgbouncer;
