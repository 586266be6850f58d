#!/usr/bin/env bash
# Checks that the code the chapter and exercise READMEs quote exists as they say, so that text and
# code cannot drift apart (CTest: docs.readme_code, label cpu):
#   - every `\snippet FILE NAME` line (Doxygen quotes the lines between the two `//! [NAME]` markers
#     of FILE, a path from the repository root, when it builds the docs) names a file that exists
#     and has exactly two marker lines for NAME;
#   - every kernel-diff block is what scripts/kernel_diff.sh makes of the code now.
#
#   scripts/check_readme_code.sh [README.md ...]   (default: every README of chapters/ and exercises/)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# == 0 ]]; then
  set -- "$root"/README.md "$root"/chapters/*/README.md "$root"/exercises/*/README.md
fi
status=0
snippets=0
for readme in "$@"; do
  while IFS=: read -r number line; do
    # \snippet{lineno} FILE NAME, or \snippet FILE NAME
    read -r _ file name _ <<< "$(sed -E 's/\\snippet(\{[^}]*\})?/snippet/' <<< "$line")"
    snippets=$((snippets + 1))
    if [[ -z "${name:-}" ]]; then
      echo "$readme:$number: \\snippet needs a file and a marker name: $line" >&2
      status=1
    elif [[ ! -f "$root/$file" ]]; then
      echo "$readme:$number: \\snippet names $file, which does not exist" >&2
      status=1
    else
      count=$(grep -cF "//! [$name]" "$root/$file" || true)
      if [[ "$count" != 2 ]]; then
        echo "$readme:$number: \\snippet $file $name: the file has $count lines with '//! [$name]', not 2" >&2
        status=1
      fi
    fi
  done < <(grep -n '^[[:space:]]*\\snippet' "$readme" || true)
done
"$root/scripts/kernel_diff.sh" --check "$@" || status=1
if [[ $status == 0 ]]; then
  echo "ok: $snippets snippets and every kernel-diff block in $# files match the code"
fi
exit $status
