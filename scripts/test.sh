#!/usr/bin/env bash
# Runs Vocab's whole test suite: builds the package, starts what the tests need (a throw-away
# dictd on a loopback port), runs every test (unit and end-to-end), and stops what it started,
# also when tests fail. Extra arguments go to `swift test` (e.g. --filter VocabStoreTests).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d /tmp/vocab-test-XXXXXX)
cleanup() {
    if [ -f "$work/dictd.pid" ]; then kill "$(cat "$work/dictd.pid")" 2>/dev/null || true; fi
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

# The end-to-end tests run this binary as a separate process.
export VOCAB_TEST_BINARY="$PWD/.build/debug/vocab"
swift test --skip-build --disable-swift-testing "$@"
