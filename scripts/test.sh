#!/usr/bin/env bash
# Runs Vocab's whole test suite: builds the package, starts what the tests need (a throw-away
# PostgreSQL cluster and a dictd, each on a loopback port), runs every test (unit and
# end-to-end), and stops what it started, also when tests fail. Extra arguments go to
# `swift test` (e.g. --filter VocabStoreTests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

work=$(mktemp -d /tmp/vocab-test-XXXXXX)
trap stop_services EXIT

swift build --build-tests

start_postgres
[ -n "${VOCAB_TEST_PG_ADMIN:-}" ] || echo "test.sh: no PostgreSQL could be started (apt-get install postgresql); the cloud tests will be skipped" >&2
start_dictd
[ -n "${VOCAB_TEST_DICT_SERVER:-}" ] || echo "test.sh: no dictd could be started (apt-get install dictd dict-wn); its tests will be skipped" >&2

# The end-to-end tests run this binary as a separate process.
export VOCAB_TEST_BINARY="$PWD/.build/debug/vocab"
swift test --skip-build --disable-swift-testing "$@"
