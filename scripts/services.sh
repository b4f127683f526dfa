# Sourced by test.sh and bench.sh: starts throw-away servers on loopback ports in $work and
# stops them in cleanup. PostgreSQL refuses to run as root, so as root its commands run as
# the postgres user (and $work is made reachable for it).

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)

as_pg() {
    if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

# Whether something listens on 127.0.0.1:PORT.
listening() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Waits up to 5 s for 127.0.0.1:PORT to listen.
wait_until_listening() {
    for _ in $(seq 1 50); do
        listening "$1" && return 0
        sleep 0.1
    done
    return 1
}

stop_services() {
    if [ -f "$work/dictd.pid" ]; then kill "$(cat "$work/dictd.pid")" 2>/dev/null || true; fi
    for pid in "$work/pgbouncer.pid" "$work/pgbouncer-plain.pid"; do
        if [ -f "$pid" ]; then kill "$(cat "$pid")" 2>/dev/null || true; fi
    done
    if [ -f "$work/pg/postmaster.pid" ]; then as_pg "'$pg_bin/pg_ctl' -D '$work/pg' -m immediate stop" >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}

# Exports VOCAB_TEST_PG_ADMIN (postgresql://postgres@127.0.0.1:PORT/postgres) and
# VOCAB_TEST_PG_PASSWORD when a cluster could be started.
start_postgres() {
    [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || return 0
    chmod 777 "$work"
    local admin_password="vocab-test-$RANDOM$RANDOM"
    printf '%s\n' "$admin_password" > "$work/pwfile"
    chmod 644 "$work/pwfile"
    if ! as_pg "'$pg_bin/initdb' -D '$work/pg' -U postgres --pwfile='$work/pwfile' --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --no-locale" > "$work/initdb.log" 2>&1; then
        cat "$work/initdb.log" >&2
        return 0
    fi
    rm -f "$work/pwfile"
    local port
    for port in $(seq 25432 25472); do
        local start_command="'$pg_bin/pg_ctl' -D '$work/pg' -l '$work/pg.log' -w -t 30 -o \"-p $port -k '$work' -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400\" start"
        if as_pg "$start_command" >/dev/null 2>&1; then
            export VOCAB_TEST_PG_ADMIN="postgresql://postgres@127.0.0.1:$port/postgres"
            export VOCAB_TEST_PG_PASSWORD="$admin_password"
            # For the fault tests: stop the server in the middle of a sync, then start it again.
            printf '#!/bin/sh\n%s\n' "$(declare -f as_pg); as_pg \"'$pg_bin/pg_ctl' -D '$work/pg' -m immediate stop\"" > "$work/pg-stop"
            printf '#!/bin/sh\n%s\n' "$(declare -f as_pg); as_pg \"$(printf '%s' "$start_command" | sed 's/"/\\"/g')\"" > "$work/pg-start"
            chmod 755 "$work/pg-stop" "$work/pg-start"
            export VOCAB_TEST_PG_STOP="$work/pg-stop" VOCAB_TEST_PG_START="$work/pg-start"
            return 0
        fi
    done
}

# Exports VOCAB_TEST_PGBOUNCER (host:port) when a PgBouncer in transaction pooling mode could be
# started in front of the PostgreSQL above, configured as the README shows: users and device
# roles log in through it with their own passwords (SCRAM), looked up with auth_query by a
# lookup user through docs/pgbouncer-lookup.sql's SECURITY DEFINER function, not the superuser.
start_pgbouncer() {
    [ -n "${VOCAB_TEST_PG_ADMIN:-}" ] && command -v pgbouncer >/dev/null 2>&1 || return 0
    local pg_port=${VOCAB_TEST_PG_ADMIN##*:}; pg_port=${pg_port%%/*}
    local lookup_password="lookup-$RANDOM$RANDOM"
    PGPASSWORD="$VOCAB_TEST_PG_PASSWORD" PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 "$VOCAB_TEST_PG_ADMIN" -f docs/pgbouncer-lookup.sql \
        -c "ALTER ROLE vocab_pgbouncer PASSWORD '$lookup_password'" >/dev/null || return 0
    printf '"vocab_pgbouncer" "%s"\n' "$lookup_password" > "$work/pgbouncer-users.txt"
    chmod 600 "$work/pgbouncer-users.txt"
    [ "$(id -u)" = 0 ] && chown postgres "$work/pgbouncer-users.txt"
    if pgbouncer_on "$pg_port" pgbouncer 26432 "auth_user = vocab_pgbouncer
auth_query = SELECT uname, phash FROM pgbouncer.user_lookup(\$1)"; then
        export VOCAB_TEST_PGBOUNCER="127.0.0.1:$pgbouncer_port"
    fi
    # A second one with only an auth_file (PgBouncer's plainest set-up, which cannot know a new
    # device's role): the tests write its users file and reload it (SIGHUP to its pid).
    : > "$work/pgbouncer-plain-users.txt"
    chmod 600 "$work/pgbouncer-plain-users.txt"
    [ "$(id -u)" = 0 ] && chown postgres "$work/pgbouncer-plain-users.txt"
    if pgbouncer_on "$pg_port" pgbouncer-plain 26473 ""; then
        export VOCAB_TEST_PGBOUNCER_PLAIN="127.0.0.1:$pgbouncer_port" VOCAB_TEST_PGBOUNCER_PLAIN_USERS="$work/pgbouncer-plain-users.txt"
        export VOCAB_TEST_PGBOUNCER_PLAIN_PID="$work/pgbouncer-plain.pid"
    fi
}

# Starts a PgBouncer in transaction pooling mode named $2 ($work/$2.ini, its users in
# $work/$2-users.txt) in front of PostgreSQL's port $1, on the first free port from $3, with
# the lines $4 added; sets pgbouncer_port.
pgbouncer_on() {
    local port
    for port in $(seq "$3" $(($3 + 40))); do
        # A port someone else listens on would look like ours once we "started".
        listening "$port" && continue
        cat > "$work/$2.ini" <<CONF
[databases]
* = host=127.0.0.1 port=$1
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $work/$2-users.txt
$4
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
; A pool per role (each device is a role of its own): all of them together stay under the
; server's connections, idle ones of other pools closed to make room, and idle ones closed soon.
max_db_connections = 300
server_idle_timeout = 20
pidfile = $work/$2.pid
logfile = $work/$2.log
CONF
        as_pg "pgbouncer -d '$work/$2.ini'" >/dev/null 2>&1 || continue
        if wait_until_listening "$port"; then
            pgbouncer_port=$port
            return 0
        fi
    done
    return 1
}

# Exports VOCAB_TEST_DICT_SERVER (127.0.0.1:PORT) when dictd with WordNet could be started.
start_dictd() {
    command -v dictd >/dev/null 2>&1 && [ -f /usr/share/dictd/wn.index ] || return 0
    chmod 777 "$work"  # dictd drops root's privileges and must write its log here
    local port
    for port in $(seq 26300 26340); do
        listening "$port" && continue  # someone else's: it would look like ours
        cat > "$work/dictd.conf" <<CONF
global {
    listen_to 127.0.0.1
    port $port
    pid_file $work/dictd.pid
}
access {
    allow 127.0.0.1
}
database wn {
    data  "/usr/share/dictd/wn.dict.dz"
    index "/usr/share/dictd/wn.index"
}
CONF
        dictd --config "$work/dictd.conf" -L "$work/dictd.log" 2>/dev/null || continue
        if wait_until_listening "$port"; then
            export VOCAB_TEST_DICT_SERVER="127.0.0.1:$port"
            return 0
        fi
        [ -f "$work/dictd.pid" ] && kill "$(cat "$work/dictd.pid")" 2>/dev/null || true
    done
}
