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

# Waits up to SECONDS (5 unless given) for 127.0.0.1:PORT to listen.
wait_until_listening() {
    for _ in $(seq 1 $((${2:-5} * 10))); do
        listening "$1" && return 0
        sleep 0.1
    done
    return 1
}

# Closes every descriptor but standard input, output and error, so that what a control script
# starts (a keeper, a postmaster) does not hold its caller's other descriptors: a caller that waits
# for the script (or reads its output) through one must not wait for what the script started too.
close_inherited_descriptors() {
    local fd
    for fd in /proc/$$/fd/*; do
        fd=${fd##*/}
        [ "$fd" -gt 2 ] && [ "$fd" -ne 255 ] && eval "exec $fd>&-" 2>/dev/null
    done
    return 0
}

stop_services() {
    if [ -x "$work/backup/ctl" ]; then "$work/backup/ctl" stop >/dev/null 2>&1 || true; fi
    if [ -x "$work/failover/ctl" ]; then "$work/failover/ctl" stop >/dev/null 2>&1 || true; fi
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
    # TLS, as docs/operating.md sets a cloud up: a CA of this run's and a certificate for
    # 127.0.0.1 it signed, exported as VOCAB_TEST_PG_CA for clients that verify (sslmode=verify-full).
    local tls="$work/pg-tls" ssl=""
    mkdir -p "$tls"
    if openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Vocab test CA" -keyout "$tls/ca.key" -out "$tls/ca.crt" >/dev/null 2>&1 \
        && openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$tls/server.key" -out "$tls/server.csr" >/dev/null 2>&1 \
        && printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > "$tls/san.ext" \
        && openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
            -extfile "$tls/san.ext" -out "$tls/server.crt" >/dev/null 2>&1; then
        chown postgres "$tls/server.key" "$tls/server.crt" 2>/dev/null || true
        chmod 600 "$tls/server.key"
        chmod 644 "$tls/ca.crt" "$tls/server.crt"
        chmod 755 "$tls"
        ssl="-c ssl=on -c ssl_cert_file='$tls/server.crt' -c ssl_key_file='$tls/server.key'"
        export VOCAB_TEST_PG_CA="$tls/ca.crt"
    fi
    local port
    for port in $(seq 25432 25472); do
        local start_command="'$pg_bin/pg_ctl' -D '$work/pg' -l '$work/pg.log' -w -t 30 -o \"-p $port -k '$work' -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400 $ssl\" start"
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

# Exports VOCAB_TEST_FAILOVER_ADMIN, an administrator's multi-host address of a cloud of two
# PostgreSQL nodes under pg_auto_failover (a monitor, a primary and a synchronous standby, each
# node run by its keeper, `pg_autoctl run`, in a session of its own), and VOCAB_TEST_FAILOVER_CTL,
# a script: `state` (pg_autoctl show state), `primary` (the port of the node that takes writes),
# `kill-primary` (SIGKILL to that node's keeper and PostgreSQL: the host lost; prints its name),
# `kill-standby` (the same to the other node),
# `revive NAME` (its keeper again: it rejoins as the standby), `stop`. The monitor checks the
# nodes every second and promotes the standby within seconds of losing the primary
# (docs/pg_auto_failover-monitor.sql, as docs/operating.md sets it up).
start_failover_cluster() {
    command -v pg_autoctl >/dev/null 2>&1 && [ -n "$pg_bin" ] || return 0
    # A machine busy with its disk can be slow to make a node (initdb, a base backup): a cloud
    # that did not come up is stopped, said why, and made once more on other ports.
    local attempt after=27097
    for attempt in 1 2; do
        try_failover_cluster "$after" && return 0
        [ -x "$work/failover/ctl" ] && "$work/failover/ctl" stop >/dev/null 2>&1
        after=$(cat "$work/failover/first" 2>/dev/null || echo "$after")
        mv "$work/failover" "$work/failover-failed-$attempt" 2>/dev/null || true
    done
    return 0
}

# Says why a try of the failover cloud gave up ($1), with the end of each log it wrote; fails.
failover_gave_up() {
    echo "services.sh: the pg_auto_failover cloud did not come up: $1" >&2
    local log
    for log in "$work"/failover/*.log; do
        [ -f "$log" ] && { echo "--- the end of $log:" >&2; tail -n 15 "$log" >&2; }
    done
    return 1
}

# One try of start_failover_cluster on the first free ports after $1; fails when it gave up.
try_failover_cluster() {
    local base="$work/failover" port first=""
    mkdir -p "$base/run"
    chmod 777 "$work" "$base" "$base/run"
    for port in $(seq $(($1 + 3)) 3 27190); do
        listening "$port" || listening $((port + 1)) || listening $((port + 2)) || { first=$port; break; }
    done
    [ -n "$first" ] || { failover_gave_up "no three free ports after $1"; return 1; }
    echo "$first" > "$base/first"
    local environment="XDG_CONFIG_HOME='$base/config' XDG_DATA_HOME='$base/data' XDG_RUNTIME_DIR='$base/run' PATH='$pg_bin':\$PATH"
    cat > "$base/ctl" <<CTL
#!/bin/bash
# Drives the test cloud's two nodes (scripts/services.sh, start_failover_cluster).
$(declare -f as_pg)
base='$base'
$(declare -f close_inherited_descriptors)
close_inherited_descriptors
keeper() { as_pg "cd /tmp; $environment setsid sh -c 'echo \\\$\\\$ > \$base/\$1.keeper; exec pg_autoctl run --pgdata \$base/\$1' >> \$base/\$1.log 2>&1 < /dev/null &"; }
# SIGKILL to a node's keeper, its PostgreSQL and every process of it at once (each backend is
# a session of its own: killing the postmaster alone would leave them serving their clients).
lose() {
    local postmaster children
    for postmaster in \$(pgrep -f "postgres -D \$base/\$1( |\\\$)"); do
        kill -STOP "\$postmaster" 2>/dev/null
        children=\$(pgrep -P "\$postmaster")
        kill -9 "\$postmaster" \$children 2>/dev/null
    done
    [ -f "\$base/\$1.keeper" ] && kill -9 -- -"\$(cat "\$base/\$1.keeper")" 2>/dev/null
    true
}
autoctl() { as_pg "cd /tmp; $environment pg_autoctl \$*"; }
primary() {
    for port in $((first + 1)) $((first + 2)); do
        [ "\$(psql -X -A -t -h 127.0.0.1 -p \$port -U postgres -c 'SELECT pg_is_in_recovery() OR current_setting('"'"'default_transaction_read_only'"'"')::bool' postgres 2>/dev/null)" = f ] && { echo \$port; return 0; }
    done
    return 1
}
case "\$1" in
    state) autoctl show state --pgdata "\$base/monitor" ;;
    primary) primary ;;
    kill-primary|kill-standby)
        port=\$(primary) || exit 1
        [ "\$1" = kill-primary ] || port=\$(( $((2 * first + 3)) - port ))
        name=node\$((port - $first))
        lose "\$name"
        echo "\$name" ;;
    revive) keeper "\$2" ;;
    start-keeper) keeper "\$2" ;;
    create) autoctl "\${@:2}" ;;
    stop)
        for name in node1 node2 monitor; do lose "\$name"; done
        true ;;
esac
CTL
    chmod 755 "$base/ctl"
    "$base/ctl" create create monitor --pgdata "$base/monitor" --pgport "$first" --hostname 127.0.0.1 --auth trust --no-ssl \
        > "$base/create-monitor.log" 2>&1 || { failover_gave_up "the monitor could not be made"; return 1; }
    "$base/ctl" start-keeper monitor
    wait_until_listening "$first" 60 || { failover_gave_up "the monitor did not listen within 60 s"; return 1; }
    for _ in $(seq 1 300); do
        psql -X -q -h 127.0.0.1 -p "$first" -U postgres -c "SELECT 1" pg_auto_failover >/dev/null 2>&1 && break
        sleep 0.2
    done
    psql -X -q -h 127.0.0.1 -p "$first" -U postgres -f docs/pg_auto_failover-monitor.sql pg_auto_failover >/dev/null \
        || { failover_gave_up "the monitor did not take docs/pg_auto_failover-monitor.sql"; return 1; }
    local n
    for n in 1 2; do
        "$base/ctl" create create postgres --pgdata "$base/node$n" --pgport $((first + n)) --hostname 127.0.0.1 --auth trust --no-ssl \
            --name "node$n" --monitor "postgresql://autoctl_node@127.0.0.1:$first/pg_auto_failover" \
            > "$base/create-node$n.log" 2>&1 || { failover_gave_up "node$n could not be made"; return 1; }
        # A primary cut off from the monitor and the standby demotes itself after 5 s, before
        # the monitor (8 s) promotes the standby: never two primaries.
        "$base/ctl" create config set --pgdata "$base/node$n" timeout.network_partition_timeout 5 >/dev/null
        "$base/ctl" start-keeper "node$n"
        # The standby listens only once its base backup of the primary is done.
        wait_until_listening $((first + n)) 120 || { failover_gave_up "node$n did not listen within 120 s"; return 1; }
    done
    # Ready when one node takes writes and the other replicates synchronously.
    for _ in $(seq 1 240); do
        local state
        state=$("$base/ctl" state 2>/dev/null || true)
        if grep -Eq "\| +secondary +\| +secondary" <<< "$state" && grep -Eq "\| +primary +\| +primary" <<< "$state" && "$base/ctl" primary >/dev/null; then
            export VOCAB_TEST_FAILOVER_ADMIN="postgresql://postgres@127.0.0.1:$((first + 1)),127.0.0.1:$((first + 2))/postgres?target_session_attrs=read-write"
            export VOCAB_TEST_FAILOVER_CTL="$base/ctl"
            return 0
        fi
        sleep 0.5
    done
    "$base/ctl" state >&2 || true
    failover_gave_up "no primary and synchronous secondary within 120 s"
}

# Exports VOCAB_TEST_BACKUP_ADMIN, an administrator's address of a third PostgreSQL whose WAL
# pgBackRest archives (docs/pgbackrest.conf with this run's paths), and VOCAB_TEST_BACKUP_CTL, a
# script: `backup` (a full backup), `restore TIME` (stop, restore to that moment, promote,
# start), `stop`.
start_backup_cluster() {
    command -v pgbackrest >/dev/null 2>&1 && [ -n "$pg_bin" ] || return 0
    local base="$work/backup" port="" candidate
    mkdir -p "$base"
    chmod 777 "$work" "$base"
    as_pg "mkdir -p '$base/lock' '$base/log' '$base/spool'"
    for candidate in $(seq 27200 27240); do listening "$candidate" || { port=$candidate; break; }; done
    [ -n "$port" ] || return 0
    as_pg "'$pg_bin/initdb' -D '$base/pg' -U postgres --auth=trust -E UTF8 --no-locale" > "$base/initdb.log" 2>&1 || { cat "$base/initdb.log" >&2; return 0; }
    local passphrase
    passphrase=$(openssl rand -base64 48 | tr -d '\n/+=')
    sed -e "s|^repo1-path=.*|repo1-path=$base/repo|" -e "s|^pg1-path=.*|pg1-path=$base/pg\npg1-port=$port\npg1-socket-path=$base|" \
        -e "s|^repo1-cipher-pass=.*|repo1-cipher-pass=$passphrase|" \
        -e "s|^\[global\]|[global]\nlock-path=$base/lock\nlog-path=$base/log\nspool-path=$base/spool|" docs/pgbackrest.conf > "$base/pgbackrest.conf"
    chown postgres "$base/pgbackrest.conf" 2>/dev/null || true
    chmod 600 "$base/pgbackrest.conf"       # it holds the repository's passphrase
    cat >> "$base/pg/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$base'
fsync = off
wal_level = replica
archive_mode = on
archive_command = 'pgbackrest --config=$base/pgbackrest.conf --stanza=vocab archive-push %p'
CONF
    cat > "$base/ctl" <<CTL
#!/bin/bash
# Drives the test suite's backed-up PostgreSQL (scripts/services.sh, start_backup_cluster).
set -e
$(declare -f as_pg)
$(declare -f close_inherited_descriptors)
close_inherited_descriptors
pgbackrest() { as_pg "cd /tmp; pgbackrest --config='$base/pgbackrest.conf' --stanza=vocab \$*"; }
pg_ctl() { as_pg "'$pg_bin/pg_ctl' -D '$base/pg' -l '$base/pg.log' -w -t 60 \$*"; }
case "\$1" in
    backup) pgbackrest check && pgbackrest backup --type=full ;;
    info) pgbackrest info --output=json ;;
    restore)
        pgbackrest check                     # every WAL segment up to now archived
        pg_ctl -m fast stop
        # From the newest backup: left to choose, pgBackRest wants one that stopped in an
        # earlier second than the target, and a moment just after a backup has none.
        newest=\$(pgbackrest info --output=json | grep -o '"label":"[^"]*"' | tail -n 1 | cut -d '"' -f 4)
        pgbackrest restore --delta "--set=\$newest" --type=time "'--target=\$2'" --target-action=promote
        pg_ctl start
        # pg_ctl returns once the server takes read-only connections, while it still replays
        # WAL: wait until it has reached the moment and been promoted (a minute at most).
        for _ in \$(seq 1 600); do
            [ "\$(as_pg "'$pg_bin/psql' -h '$base' -p $port -d postgres -Atc 'SELECT pg_is_in_recovery()'" 2>/dev/null)" = f ] && exit 0
            sleep 0.1
        done
        echo "the restored server was still recovering after a minute" >&2
        exit 1 ;;
    start) pg_ctl start ;;
    stop) pg_ctl -m immediate stop ;;
esac
CTL
    chmod 755 "$base/ctl"
    "$base/ctl" start > "$base/start.log" 2>&1 || { cat "$base/start.log" "$base/pg.log" >&2; return 0; }
    as_pg "cd /tmp; pgbackrest --config='$base/pgbackrest.conf' --stanza=vocab stanza-create" > "$base/stanza.log" 2>&1 || { cat "$base/stanza.log" >&2; return 0; }
    export VOCAB_TEST_BACKUP_ADMIN="postgresql://postgres@127.0.0.1:$port/postgres"
    export VOCAB_TEST_BACKUP_CTL="$base/ctl"
}

# Makes the server tier's role (vocab_server) with a password of this run, exported as
# VOCAB_TEST_SERVER_PASSWORD (what `vocab cloud server-password` sets; `vocab cloud init` keeps it),
# and exports VOCAB_TEST_PGBOUNCER (host:port) when a PgBouncer in transaction pooling mode could
# be started in front of the PostgreSQL above, configured as docs/operating.md shows: only the server
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
    # TLS on both sides, as docs/operating.md sets it up: servers must use it, and PgBouncer
    # verifies PostgreSQL's certificate (the suite's CA, start_postgres).
    local tls=""
    if [ -n "${VOCAB_TEST_PG_CA:-}" ]; then
        local dir; dir=$(dirname "$VOCAB_TEST_PG_CA")
        tls="client_tls_sslmode = require
client_tls_key_file = $dir/server.key
client_tls_cert_file = $dir/server.crt
server_tls_sslmode = verify-full
server_tls_ca_file = $VOCAB_TEST_PG_CA"
    fi
    if pgbouncer_on "$pg_port" pgbouncer 26432 "$tls"; then
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
