#!/usr/bin/env bash
# What a flood of game creations from one client stores (issue 24's closing figure):
#   docs/creation-flood.sh [PYTHON] [N]      (defaults: .venv/bin/python, 2000)
# Serves a throwaway production-like server (.ci/with-server: gunicorn, a fresh SQLite
# database, DEBUG off), sends N creations from one address (`hostilehttp --create N`, a
# fresh cookie jar each time, as a script would) and prints the answers, then the games
# stored and the bytes of their table and indexes. The creation limit is
# PLAY_CREATE_PER_MINUTE (30), so the figure grows with how long the flood lasts.
set -euo pipefail
cd "$(dirname "$0")/.."
py="${1:-.venv/bin/python}"
n="${2:-2000}"
exec .ci/with-server "$py" "$py" manage.py hostilehttp --create "$n"
