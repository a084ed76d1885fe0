#!/usr/bin/env bash
# The tools with lockfiles of their own, each installed once and again only when its pin changes (a
# stamp holds the SHA-256 of the lockfile it was installed from). Needs only bash, npm and Python, not
# the project's node_modules, so `make test` installs the Python tools beside `npm ci`. Called by the
# Makefile (Spectral, the Python tools), scripts/sdks/tools.ts (ensureVenv) and scripts/dev/mock.ts
# (ensurePrism).
#
#   tool-install.sh npm <folder>                  npm ci --ignore-scripts from <folder>/package-lock.json
#   tool-install.sh venv <venv> <requirements>    a Python 3.11 virtual environment with exactly the
#                                                 hashed requirements (pip --require-hashes)
set -euo pipefail
cd "$(dirname "$0")/../.."

digest() { sha256sum "$1" | cut -d' ' -f1; }
stamped() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

case "${1:-}" in
npm)
  dir=$2
  want=$(digest "$dir/package-lock.json")
  stamp="$dir/node_modules/.install-stamp"
  stamped "$stamp" "$want" && exit 0
  echo "tool-install: $dir (npm ci from its lockfile)"
  # --ignore-scripts: the tools' one install script is analytics
  (cd "$dir" && SCARF_ANALYTICS=false npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  printf %s "$want" >"$stamp"
  ;;
venv)
  venv=$2 requirements=$3
  want=$(digest "$requirements")
  stamp="$venv/.requirements-sha256"
  stamped "$stamp" "$want" && exit 0
  echo "tool-install: $venv (pip from $requirements)"
  rm -rf "$venv"
  install=(install --quiet --disable-pip-version-check --require-hashes --no-deps --no-compile -r "$requirements")
  # The system's pip installs into a venv without a copy of pip of its own (pip's --python, 22.3+):
  # copying and compiling pip into each venv cost more than the tools' install. Modules are compiled
  # when first imported, not all at install (--no-compile). Without a system pip, the venv's own.
  if python3.11 -c 'import pip, sys; sys.exit(0 if tuple(map(int, pip.__version__.split(".")[:2])) >= (22, 3) else 1)' 2>/dev/null; then
    python3.11 -m venv --without-pip "$venv"
    python3.11 -m pip --python "$venv/bin/python" "${install[@]}"
  else
    python3.11 -m venv "$venv"
    "$venv/bin/pip" "${install[@]}"
  fi
  printf %s "$want" >"$stamp"
  ;;
*)
  echo "usage: $0 npm <folder> | venv <venv> <requirements>" >&2
  exit 2
  ;;
esac
