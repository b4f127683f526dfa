#!/usr/bin/env bash
# Builds vocab_VERSION_amd64.deb with debhelper (packaging/debian): the vocab binary as the
# README installs it (release, the Swift runtime linked in), vocab-server.service with its own
# system user and hardening, /etc/vocab/server.env for its settings (a conffile, 0600), and man
# pages made from the help text (help2man); then runs lintian, which must report no error and no
# warning (packaging/debian/vocab.lintian-overrides says why for what it is told to leave).
#   Usage: scripts/package-deb.sh [--out DIR] [--binary PATH]   (--binary: a vocab already built so)
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/build"
binary=""
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=${2:?--out needs a folder}; shift 2 ;;
        --binary) binary=${2:?--binary needs a file}; shift 2 ;;
        -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
        *) echo "package-deb.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
for tool in dpkg-buildpackage dh help2man lintian; do
    command -v "$tool" >/dev/null || { echo "package-deb.sh: $tool is missing (apt-get install debhelper help2man lintian)" >&2; exit 1; }
done
if [ -z "$binary" ]; then
    swift build -c release --static-swift-stdlib --disable-local-rpath --product vocab
    binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/vocab"
fi
[ -x "$binary" ] || { echo "package-deb.sh: $binary is not a vocab binary" >&2; exit 1; }
version=$("$binary" --version | cut -d' ' -f2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source="$work/vocab-$version"
mkdir -p "$source"
cp -r packaging/debian "$source/debian"
cp "$binary" "$source/debian/vocab-binary"
cat > "$source/debian/changelog" <<CHANGES
vocab ($version) unstable; urgency=medium

  * Built from $(git rev-parse --short HEAD 2>/dev/null || echo "a source tree").

 -- Vocab developers <vocab@example.org>  $(date -R)
CHANGES
(cd "$source" && dpkg-buildpackage --build=binary --unsigned-source --unsigned-changes >"$work/build.log" 2>&1) \
    || { cat "$work/build.log" >&2; echo "package-deb.sh: dpkg-buildpackage failed" >&2; exit 1; }
mkdir -p "$out"
package="$out/vocab_${version}_amd64.deb"
mv "$work/vocab_${version}_amd64.deb" "$package"
lintian --fail-on error,warning --suppress-tags-from-file /dev/null "$package" >&2
echo "$package"
