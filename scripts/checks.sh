# shellcheck shell=bash
# Checks the scripts make on their arguments before they set up, build or write anything (sourced by
# lecture.sh, tour.sh and test.sh). Each failure is one line on stderr and exit code 2.

# need_value PROGRAM OPTION [VALUE ...]: the option (the caller's "$@") must be followed by a value,
# not by nothing, an empty word or another option.
need_value() {
  local program=$1 option=$2
  if (($# < 3)) || [ -z "$3" ] || [[ $3 == --* ]]; then
    echo "$program: $option needs a value (see --help)" >&2
    exit 2
  fi
}

# writable_dir PROGRAM WHAT DIR: creates DIR (and its parents) and makes and removes a file in it, so
# that a folder in the way, a file where a folder is needed or a folder without write permission is
# reported with the system's reason before any work starts.
writable_dir() {
  local program=$1 what=$2 dir=$3 err probe
  if [ -z "$dir" ]; then
    echo "$program: $what needs a folder, got an empty path" >&2
    exit 2
  fi
  if [ -e "$dir" ] && [ ! -d "$dir" ]; then
    echo "$program: $what '$dir' is a file, not a folder" >&2
    exit 2
  fi
  if ! err=$(mkdir -p -- "$dir" 2>&1); then
    echo "$program: $what '$dir': cannot create it: ${err##*: }" >&2
    exit 2
  fi
  if ! probe=$(mktemp -p "$dir" .write-check.XXXXXX 2>&1); then
    echo "$program: $what '$dir' is not writable: ${probe##*: }" >&2
    exit 2
  fi
  rm -f -- "$probe"
}
