#!/usr/bin/env bash
# Writes docs/screenshots/{en,ko}-*.png: each screen of vocab-desktop on a demo store, in
# English and in Korean, on a virtual display (needs what .ci/run installs for the desktop tests).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product vocab --product vocab-desktop 2>/dev/null || { swift build --product vocab && swift build --product vocab-desktop; }
demo=$(mktemp -d /tmp/vocab-screenshots-XXXXXX)
trap 'rm -rf "$demo"' EXIT
export VOCAB_HOME="$demo/data" XDG_CONFIG_HOME="$demo/config" GSK_RENDERER=cairo
vocab=.build/debug/vocab
convert -size 280x280 gradient:'#62a0ea-#1a5fb4' -gravity center -fill white -font /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf -pointsize 64 -annotate 0 'TOEIC' "$demo/cover.png"
$vocab book add TOEIC --explain "words for the exam" --image "$demo/cover.png" >/dev/null
$vocab book add "일상 영어" --explain "everyday English" >/dev/null
for word in abandon happy glad brave calm eager fragile honest keen modest; do
    $vocab word add "$word" --book TOEIC --lookup >/dev/null
done
$vocab word add apple --book "일상 영어" --definition "사과" >/dev/null
$vocab word memorize glad >/dev/null
# A month of study, for the Progress page: each word reviewed on some of the last 30 days.
day=0
for word in abandon happy brave calm eager fragile honest keen modest apple; do
    day=$((day + 1))
    for ago in $((40 - day)) $((30 - day)) $((21 - day)) $((12 - day / 2)) $((5 - day / 3)) 1; do
        rating=good; [ $(((ago + day) % 5)) -eq 0 ] && rating=again
        $vocab review "$word" --rating $rating --now "$(date -u -d "-$ago days -$((day * 37)) minutes" +%Y-%m-%dT%H:%M:%SZ)" >/dev/null
    done
done
mkdir -p docs/screenshots
for lang in en ko; do
    locale=C.UTF-8; [ "$lang" = ko ] && locale=ko_KR.UTF-8
    LANG=$locale xvfb-run -a -s "-screen 0 1280x800x24 -noreset" dbus-run-session -- \
        /usr/bin/python3 Tests/Desktop/screenshots.py "$PWD/.build/debug/vocab-desktop" "$PWD/$vocab" "$PWD/docs/screenshots" "$lang" \
        2> >(grep -v -e dbus-daemon -e SpiRegistry >&2)
done
