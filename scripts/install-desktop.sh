#!/usr/bin/env bash
# Installs vocab and vocab-desktop like a desktop app: the binaries, the Korean catalogue, a
# .desktop entry and an icon under PREFIX (default ~/.local), so Vocab appears in the
# application menu.   Usage: scripts/install-desktop.sh [--prefix DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="$HOME/.local"
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
        -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
        *) echo "install-desktop.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
# The Swift runtime linked in: the binaries run on a machine without Swift, and each `vocab`
# command starts in about half the time (a command is a process of its own). The translations
# are inside the binaries.
swift build -c release --static-swift-stdlib --disable-local-rpath --product vocab
swift build -c release --static-swift-stdlib --disable-local-rpath --product vocab-desktop
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
install -d "$prefix/bin" "$prefix/share/applications" "$prefix/share/icons/hicolor/scalable/apps"
install -m 755 "$bin/vocab" "$bin/vocab-desktop" "$prefix/bin/"
install -m 644 data/org.vocab.Desktop.desktop "$prefix/share/applications/"
install -m 644 data/org.vocab.Desktop.svg "$prefix/share/icons/hicolor/scalable/apps/"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$prefix/share/applications" || true
echo "Installed vocab and vocab-desktop in $prefix/bin; Vocab is in the application menu."
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "Add $prefix/bin to your PATH to run them by name." ;; esac
