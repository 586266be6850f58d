#!/usr/bin/env bash
# The change from one kernel to the next, as the chapter READMEs show it: a unified diff of two
# source files, or of the regions between two Doxygen snippet markers (`//! [name]` lines), so that
# the text shows the real difference and cannot drift from the code.
#
#   scripts/kernel_diff.sh OLD[#name] NEW[#name]   print the diff (paths from the repository root)
#   scripts/kernel_diff.sh --update README.md ...  regenerate every kernel-diff block in the files
#   scripts/kernel_diff.sh --check README.md ...   exit 1 if a block differs from what the code gives
#
# A block in a README:
#   <!-- kernel-diff kernels/jacobi/cuda/03_simple.cu#kernel kernels/jacobi/cuda/04_aligned.cu#kernel -->
#   ```diff
#   (generated)
#   ```
#   <!-- /kernel-diff -->
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The lines of FILE between its two `//! [NAME]` markers, or the whole file without a name.
extract() {
  local spec="$1" file name
  file="${spec%%#*}"
  name=""
  [[ "$spec" == *"#"* ]] && name="${spec#*#}"
  if [[ ! -f "$root/$file" ]]; then
    echo "kernel_diff.sh: no file $file" >&2
    return 1
  fi
  if [[ -z "$name" ]]; then
    cat "$root/$file"
    return 0
  fi
  local count
  count=$(grep -cF "//! [$name]" "$root/$file" || true)
  if [[ "$count" != 2 ]]; then
    echo "kernel_diff.sh: $file has $count lines with '//! [$name]', not 2" >&2
    return 1
  fi
  awk -v m="//! [$name]" 'index($0, m) { inside = !inside; next } inside' "$root/$file"
}

# The unified diff of two specs, labelled with their file names.
show_diff() {
  local old new
  old="$(extract "$1")" || return 1
  new="$(extract "$2")" || return 1
  diff -u --label "${1%%#*}" --label "${2%%#*}" <(printf '%s\n' "$old") <(printf '%s\n' "$new") || [[ $? == 1 ]]
}

# FILE with every kernel-diff block regenerated, on stdout.
regenerate() {
  local file="$1" line in_block=0 old new
  while IFS= read -r line || [[ -n "$line" ]]; do
    if [[ "$line" =~ ^\<!--\ kernel-diff\ ([^ ]+)\ ([^ ]+)\ --\>$ ]]; then
      old="${BASH_REMATCH[1]}"
      new="${BASH_REMATCH[2]}"
      printf '%s\n' "$line" '```diff'
      show_diff "$old" "$new" || { echo "kernel_diff.sh: in $file" >&2; return 1; }
      printf '%s\n' '```'
      in_block=1
    elif [[ "$line" == "<!-- /kernel-diff -->" ]]; then
      in_block=0
      printf '%s\n' "$line"
    elif [[ $in_block == 0 ]]; then
      printf '%s\n' "$line"
    fi
  done < "$file"
  if [[ $in_block == 1 ]]; then
    echo "kernel_diff.sh: $file: a kernel-diff block has no <!-- /kernel-diff --> line" >&2
    return 1
  fi
}

case "${1:-}" in
  --update | --check)
    mode="$1"
    shift
    status=0
    for f in "$@"; do
      generated="$(regenerate "$f")" || { status=1; continue; }
      if [[ "$mode" == --update ]]; then
        printf '%s\n' "$generated" > "$f"
      elif ! diff -q <(printf '%s\n' "$generated") "$f" > /dev/null; then
        echo "kernel_diff.sh: $f: a kernel-diff block is stale; run scripts/kernel_diff.sh --update $f" >&2
        diff -u --label "$f" --label "$f (from the code)" "$f" <(printf '%s\n' "$generated") >&2 || true
        status=1
      fi
    done
    exit $status
    ;;
  "" | -h | --help)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    [[ $# == 2 ]] || { echo "usage: scripts/kernel_diff.sh OLD[#name] NEW[#name]" >&2; exit 2; }
    show_diff "$1" "$2"
    ;;
esac
