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
    if [ -f "$work/pgbouncer.pid" ]; then kill "$(cat "$work/pgbouncer.pid")" 2>/dev/null || true; fi
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

# Makes the server tier's role (vocab_server) with a password of this run, exported as
# VOCAB_TEST_SERVER_PASSWORD (what `vocab cloud server-password` sets; `vocab cloud init` keeps it),
# and exports VOCAB_TEST_PGBOUNCER (host:port) when a PgBouncer in transaction pooling mode could
# be started in front of the PostgreSQL above, configured as the README shows: only the server
# tier logs in through it, known from a plain auth_file holding the role's SCRAM verifier.
start_pgbouncer() {
    [ -n "${VOCAB_TEST_PG_ADMIN:-}" ] || return 0
    local server_password="server-$RANDOM$RANDOM"
    PGPASSWORD="$VOCAB_TEST_PG_PASSWORD" psql -X -q -v ON_ERROR_STOP=1 "$VOCAB_TEST_PG_ADMIN" \
        -c "CREATE ROLE vocab_server LOGIN PASSWORD '$server_password'" >/dev/null || return 0
    export VOCAB_TEST_SERVER_PASSWORD="$server_password"
    command -v pgbouncer >/dev/null 2>&1 || return 0
    local pg_port=${VOCAB_TEST_PG_ADMIN##*:}; pg_port=${pg_port%%/*}
    local verifier
    verifier=$(PGPASSWORD="$VOCAB_TEST_PG_PASSWORD" psql -X -A -t "$VOCAB_TEST_PG_ADMIN" -c "SELECT rolpassword FROM pg_authid WHERE rolname = 'vocab_server'") || return 0
    printf '"vocab_server" "%s"\n' "$verifier" > "$work/pgbouncer-users.txt"
    chmod 600 "$work/pgbouncer-users.txt"
    [ "$(id -u)" = 0 ] && chown postgres "$work/pgbouncer-users.txt"
    if pgbouncer_on "$pg_port" pgbouncer 26432 ""; then
        export VOCAB_TEST_PGBOUNCER="127.0.0.1:$pgbouncer_port"
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
; One pool: the Vocab servers' role. Each server keeps a few connections (--cloud-connections).
default_pool_size = 40
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
