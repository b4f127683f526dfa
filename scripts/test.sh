#!/usr/bin/env bash
# Runs Vocab's whole test suite: builds the package, starts what the tests need, runs every
# test (unit and end-to-end), and stops what it started, also when tests fail.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests
# The end-to-end tests run this binary as a separate process.
export VOCAB_TEST_BINARY="$PWD/.build/debug/vocab"
swift test --skip-build --disable-swift-testing "$@"
