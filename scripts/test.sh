#!/usr/bin/env bash
# Runs Vocab's whole test suite: builds the package, starts what the tests need (a throw-away
# PostgreSQL cluster, a second cloud of two nodes under pg_auto_failover, a third PostgreSQL
# backed up by pgBackRest, and a dictd, each on loopback ports), runs every test (unit, end-to-end
# of the terminal app, and the desktop window under Xvfb), and stops what it started, also
# when tests fail. Extra arguments go to `swift test` (e.g. --filter VocabStoreTests; a filter
# without "Desktop" in it skips the window's tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

work=$(mktemp -d /tmp/vocab-test-XXXXXX)
trap stop_services EXIT

swift build --build-tests

status=0
# What tests need and this machine lacks ($1; $2 how to get it): those tests skip on a
# developer's machine, but under CI=true the run fails (they never pass by skipping there).
missing() {
    if [ "${CI:-}" = "true" ]; then
        echo "test.sh: $1 ($2): CI needs it, so the run fails" >&2
        status=1
    else
        echo "test.sh: $1 ($2); its tests are skipped" >&2
    fi
}
start_postgres
[ -n "${VOCAB_TEST_PG_ADMIN:-}" ] || missing "no PostgreSQL could be started" "apt-get install postgresql"
[ -n "${VOCAB_TEST_PG_CA:-}" ] || missing "no TLS certificate for PostgreSQL could be made" "apt-get install openssl"
start_pgbouncer
[ -n "${VOCAB_TEST_PGBOUNCER:-}" ] || missing "no PgBouncer could be started" "apt-get install pgbouncer"
start_dictd
# Two PostgreSQL nodes under pg_auto_failover (a monitor, a primary, a synchronous standby).
start_failover_cluster
[ -n "${VOCAB_TEST_FAILOVER_ADMIN:-}" ] || missing "no pg_auto_failover cloud could be started" "apt-get install pg-auto-failover-cli postgresql-15-auto-failover"
# A third PostgreSQL whose WAL pgBackRest archives (docs/pgbackrest.conf): restored to a moment.
start_backup_cluster
[ -n "${VOCAB_TEST_BACKUP_ADMIN:-}" ] || missing "no PostgreSQL archived by pgBackRest could be started" "apt-get install pgbackrest"
# HAProxy in front of two Vocab servers, as docs/haproxy.cfg sets it up (the tests start it).
if command -v haproxy >/dev/null 2>&1; then export VOCAB_TEST_HAPROXY="$(command -v haproxy)"; else missing "no HAProxy" "apt-get install haproxy"; fi
# Prometheus scraping a Vocab server's /metrics, with the alert rules docs/prometheus ships.
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
    export VOCAB_TEST_PROMETHEUS="$(command -v prometheus)"
else
    missing "no Prometheus" "apt-get install prometheus"
fi
[ -n "${VOCAB_TEST_DICT_SERVER:-}" ] || missing "no dictd could be started" "apt-get install dictd dict-wn"

# The Vocab before the store was keyed by integers (schema 10), built from its commit: the
# migration's end-to-end test syncs a device still running it with an upgraded one.
schema10_commit=ca8fc31
schema10_binary="$PWD/.build/schema10/build/debug/vocab"
if [ ! -x "$schema10_binary" ] && git cat-file -e "$schema10_commit^{commit}" 2>/dev/null; then
    rm -rf .build/schema10/src && mkdir -p .build/schema10/src
    git archive "$schema10_commit" | tar -x -C .build/schema10/src
    (cd .build/schema10/src && swift build --product vocab --scratch-path ../build) || true
fi
if [ -x "$schema10_binary" ]; then
    export VOCAB_TEST_SCHEMA10_BINARY="$schema10_binary"
else
    missing "no Vocab of schema 10 could be built from commit $schema10_commit" "a clone of the repository with its history"
fi

# The Debian package (scripts/package-deb.sh: the release vocab as the README installs it,
# packaged with debhelper and passed by lintian); the suite lints it again and installs it into
# a throw-away root. Built only when the package's tests are run (a --filter naming others skips it).
if [ $# -eq 0 ] || [[ " $* " == *Debian* ]]; then
    if command -v dpkg-buildpackage >/dev/null && command -v lintian >/dev/null && command -v help2man >/dev/null \
            && command -v systemd-analyze >/dev/null; then
        if deb=$(./scripts/package-deb.sh --out "$work/deb" 2>"$work/deb.log" | tail -1) && [ -f "$deb" ]; then
            export VOCAB_TEST_DEB="$deb"
        else
            cat "$work/deb.log" >&2
            missing "the Debian package could not be built" "scripts/package-deb.sh, above"
        fi
    else
        missing "no debhelper, lintian, help2man or systemd-analyze" "apt-get install debhelper lintian help2man systemd"
    fi
fi

# Anki's own sync client (PyPI `anki`, the Rust core AnkiDroid runs) syncing with a Vocab server,
# and zstd for the bodies the protocol's bounds are tested with.
anki_python="${VOCAB_TEST_ANKI_PYTHON:-/opt/vocab-test-python/bin/python}"
if "$anki_python" -c "import anki" 2>/dev/null; then
    export VOCAB_TEST_ANKI_PYTHON="$anki_python"
else
    missing "no Python with Anki's package" ".ci/run installs it: python3 -m venv /opt/vocab-test-python && /opt/vocab-test-python/bin/pip install anki"
fi
command -v zstd >/dev/null 2>&1 || missing "no zstd" "apt-get install zstd"

# The end-to-end tests run this binary as a separate process.
export VOCAB_TEST_BINARY="$PWD/.build/debug/vocab"
export VOCAB_TEST_DESKTOP_BINARY="$PWD/.build/debug/vocab-desktop"
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$work/swift-test.log" || status=$?
# How many tests skipped, and why (XCTest prints each reason on a line of its own).
skipped=$(grep -c "^Test Case '.*' skipped" "$work/swift-test.log" || true)
echo "test.sh: $skipped XCTest cases skipped"
grep -o ": Test skipped - .*" "$work/swift-test.log" | sed 's/^: Test skipped - //' | sort | uniq -c | sed 's/^/test.sh:   /' || true
if [ "${CI:-}" = "true" ] && [ "$skipped" != 0 ]; then
    echo "test.sh: CI=true: no test may pass by skipping" >&2
    status=1
fi

# Anki itself imports Vocab's notes.txt and .apkg exports, and its own export comes back
# (PyPI `anki`, in the venv .ci/run makes, or VOCAB_TEST_ANKI_PYTHON).
if [ $# -eq 0 ] || [[ " $* " == *Anki* ]]; then
    anki_python="${VOCAB_TEST_ANKI_PYTHON:-/opt/vocab-test-python/bin/python}"
    if "$anki_python" -c "import anki" 2>/dev/null; then
        "$anki_python" Tests/Anki/notes_roundtrip.py || status=$?
        "$anki_python" Tests/Anki/apkg_roundtrip.py || status=$?
    else
        missing "no Python with Anki's package" ".ci/run installs it: python3 -m venv /opt/vocab-test-python && /opt/vocab-test-python/bin/pip install anki"
    fi
fi

# The web app in a real headless Chromium at a phone's size, against the real `vocab serve`
# (Selenium in the venv .ci/run makes; Debian's chromium and chromium-driver).
if [ $# -eq 0 ] || [[ " $* " == *Web* ]]; then
    web_python="${VOCAB_TEST_ANKI_PYTHON:-/opt/vocab-test-python/bin/python}"
    if "$web_python" -c "import selenium, importlib.util, sys; sys.exit(importlib.util.find_spec('axe_playwright_python') is None)" 2>/dev/null \
            && command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
        "$web_python" Tests/Web/web_tests.py || status=$?
        # Many learners on one server, signed in with their cloud accounts (PostgreSQL and PgBouncer above).
        (cd Tests/Web && "$web_python" cloud_web_tests.py) || status=$?
    else
        missing "no Chromium, chromedriver, Selenium or axe-core" ".ci/run installs them: apt-get install chromium chromium-driver; pip install selenium; pip install --no-deps axe-playwright-python"
    fi
fi

# The desktop app's end-to-end tests: a real window under Xvfb, driven through the
# accessibility tree (skipped only when a --filter names other tests).
if [ $# -eq 0 ] || [[ " $* " == *Desktop* ]]; then
    Tests/Desktop/run.sh || status=$?
fi
exit $status
