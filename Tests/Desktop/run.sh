#!/usr/bin/env bash
# Runs the desktop end-to-end tests: a virtual display (Xvfb, -noreset: it must not reset when
# its last client leaves) and a private session bus with the accessibility bus, then the tests
# with Debian's Python (only it sees pyatspi). Needs VOCAB_TEST_BINARY and
# VOCAB_TEST_DESKTOP_BINARY; extra arguments name single tests.
set -euo pipefail
cd "$(dirname "$0")"
export GSK_RENDERER=cairo NO_AT_BRIDGE=0 GTK_A11Y=atspi
/usr/bin/python3 check_translations.py
exec xvfb-run -a -s "-screen 0 1280x800x24 -noreset" dbus-run-session -- /usr/bin/python3 desktop_tests.py "$@"
