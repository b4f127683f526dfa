#!/usr/bin/env bash
# Builds and runs vocab-bench in release mode with a throw-away PostgreSQL for the sync
# figures (stopped afterwards). Arguments go to vocab-bench (see `vocab-bench --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/services.sh

work=$(mktemp -d /tmp/vocab-bench-XXXXXX)
trap stop_services EXIT

# Linked as an installed vocab is (scripts/install-desktop.sh, the README): the Swift runtime
# and FoundationEssentials inside the binary. vocab-bench times the `vocab` binary beside it.
swift build -c release --static-swift-stdlib --disable-local-rpath --product vocab
swift build -c release --static-swift-stdlib --disable-local-rpath --product vocab-bench
swift build -c release --product vocab-bench-spawn
swift build -c release --static-swift-stdlib --disable-local-rpath --product vocab-desktop
start_postgres
start_pgbouncer
# `failover` runs on a second cloud: two nodes under pg_auto_failover.
if [ "${1:-}" = failover ]; then start_failover_cluster; fi
export PATH="$pg_bin:$PATH"
.build/release/vocab-bench "$@"
