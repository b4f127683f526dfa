#!/usr/bin/env bash
# Runs Vocab's whole test suite: builds the package, starts what the tests need (a throw-away
# PostgreSQL cluster and a dictd, each on a loopback port), runs every test (unit and
# end-to-end), and stops what it started, also when tests fail. Extra arguments go to
# `swift test` (e.g. --filter VocabStoreTests).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d /tmp/vocab-test-XXXXXX)
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
# PostgreSQL refuses to run as root: as root, its commands run as the postgres user.
as_pg() {
    if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}
cleanup() {
    if [ -f "$work/dictd.pid" ]; then kill "$(cat "$work/dictd.pid")" 2>/dev/null || true; fi
    if [ -f "$work/pg/postmaster.pid" ]; then as_pg "'$pg_bin/pg_ctl' -D '$work/pg' -m immediate stop" >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

swift build --build-tests

# A DICT server (RFC 2229) with WordNet, for the `vocab dict --server` tests. dictd drops
# root's privileges, so its folder must be writable by its own user.
if command -v dictd >/dev/null 2>&1 && [ -f /usr/share/dictd/wn.index ]; then
    chmod 777 "$work"
    for port in $(seq 26300 26340); do
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
        for _ in $(seq 1 50); do
            if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
                export VOCAB_TEST_DICT_SERVER="127.0.0.1:$port"
                break 2
            fi
            sleep 0.1
        done
        [ -f "$work/dictd.pid" ] && kill "$(cat "$work/dictd.pid")" 2>/dev/null || true
    done
fi
if [ -z "${VOCAB_TEST_DICT_SERVER:-}" ]; then
    echo "test.sh: no dictd could be started (apt-get install dictd dict-wn); its tests will be skipped" >&2
fi

# A throw-away PostgreSQL cluster for the cloud tests: password logins over TCP on 127.0.0.1.
if [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ]; then
    chmod 777 "$work"
    admin_password="vocab-test-$RANDOM$RANDOM"
    printf '%s\n' "$admin_password" > "$work/pwfile"
    chmod 644 "$work/pwfile"
    if as_pg "'$pg_bin/initdb' -D '$work/pg' -U postgres --pwfile='$work/pwfile' --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --no-locale" > "$work/initdb.log" 2>&1; then
        rm -f "$work/pwfile"
        for port in $(seq 25432 25472); do
            if as_pg "'$pg_bin/pg_ctl' -D '$work/pg' -l '$work/pg.log' -w -t 30 -o \"-p $port -k '$work' -c listen_addresses=127.0.0.1 -c fsync=off\" start" >/dev/null 2>&1; then
                export VOCAB_TEST_PG_ADMIN="postgresql://postgres@127.0.0.1:$port/postgres"
                export VOCAB_TEST_PG_PASSWORD="$admin_password"
                break
            fi
        done
    else
        cat "$work/initdb.log" >&2
    fi
fi
if [ -z "${VOCAB_TEST_PG_ADMIN:-}" ]; then
    echo "test.sh: no PostgreSQL could be started (apt-get install postgresql); the cloud tests will be skipped" >&2
fi

# The end-to-end tests run this binary as a separate process.
export VOCAB_TEST_BINARY="$PWD/.build/debug/vocab"
swift test --skip-build --disable-swift-testing "$@"
