#!/usr/bin/env bash
# PyChess's own engine (Debian's pychess package) over xboard's protocol, without its opening book, so that every
# move it plays is its search's (issue 14's collections). It reads its settings from a configuration directory of
# its own, which names no book file; exec, so that stopping this script stops the engine.
set -euo pipefail
config=${TMPDIR:-/tmp}/morph-pychess-config
mkdir -p "$config/pychess"
printf '[General]\nopening_file_entry = /nonexistent/no-book.bin\n' > "$config/pychess/config"
XDG_CONFIG_HOME="$config" exec python3 /usr/lib/python3/dist-packages/pychess/Players/PyChess.py
