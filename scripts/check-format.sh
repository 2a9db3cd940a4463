#!/usr/bin/env bash
# Checks that the project's C, C++ and CUDA sources are formatted as
# .clang-format says, with clang-format 14 (Debian 12's, as in CI; other
# versions format some constructs differently). Prints each file that is not,
# with its changed line count, and exits 1 when there is one.
#   scripts/check-format.sh          check
#   scripts/check-format.sh --fix    format those files in place
# Programs whose source lines the tests and docs name (samples/, tests/cases/,
# tests/e2e/programs/ ...) carry a .clang-format of their own that turns
# formatting off: a reflowed line there would move every line after it.
# CLANG_FORMAT picks the binary; scripts/setup.sh installs clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
fix=0
[ "${1:-}" = "--fix" ] && fix=1

tool="${CLANG_FORMAT:-}"
if [ -z "$tool" ]; then
  for candidate in clang-format-14 clang-format; do
    if command -v "$candidate" >/dev/null; then tool="$candidate"; break; fi
  done
fi
if [ -z "$tool" ]; then
  echo "check-format: no clang-format; install clang-format 14 (scripts/setup.sh does)" >&2
  exit 2
fi
version="$("$tool" --version | grep -o 'version [0-9]*' | grep -o '[0-9]*$' || true)"
if [ "$version" != 14 ]; then
  echo "check-format: $tool is version ${version:-unknown}, not 14: it would format differently from CI;" \
       "install clang-format 14 or set CLANG_FORMAT" >&2
  exit 2
fi

mapfile -t files < <(git ls-files '*.h' '*.c' '*.cpp' '*.cu' '*.cuh')
if [ "$fix" = 1 ]; then
  "$tool" -i --style=file "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi
unformatted=0
for f in "${files[@]}"; do
  changed="$("$tool" --style=file "$f" | diff "$f" - | grep -c '^<' || true)"
  if [ "$changed" != 0 ]; then
    echo "$f: $changed lines not formatted"
    unformatted=$((unformatted + 1))
  fi
done
if [ "$unformatted" != 0 ]; then
  echo "check-format: $unformatted of ${#files[@]} files not formatted; scripts/check-format.sh --fix formats them"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
