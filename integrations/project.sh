# Memory Bank: which project a hook payload belongs to. Sourced by forward.sh and recall.sh
# (not run on its own), so that every harness names the same repository the same way and
# recall's "last time in this project" crosses harnesses and checkouts (docs/hooks.md#project-identity).
#
#   project_of FILE     sets $project to the payload's project, percent-encoded (every byte but
#                       A-Z a-z 0-9 _ ~ -), or to '' when there is none to tell
#
# The project is, in order: $MEMORY_BANK_PROJECT; the git remote `origin` of the payload's
# directory (`cwd`; Cursor `workspace_roots`, Cline `workspaceRoots`: the first), without its
# scheme and credentials (the service finishes the spelling: github.com/acme/app); the
# repository's root; nothing (the service then takes the payload's directory). Each git call is
# cut off after MEMORY_BANK_GIT_TIMEOUT seconds (default 0.3), and a slow one ends the search:
# no git, no repository, a hung disk only cost that.

# bounded SECONDS COMMAND…: the command's output, the command killed once SECONDS have passed
# (exit 124 or above then). timeout(1) where there is one, else a watchdog of our own.
bounded() {
  if command -v timeout >/dev/null 2>&1; then
    timeout "$@"
    return
  fi
  _secs=$1
  shift
  "$@" &
  _pid=$!
  (sleep "$_secs" && kill "$_pid") >/dev/null 2>&1 </dev/null &
  _dog=$!
  wait "$_pid"
  _status=$?
  kill "$_dog" 2>/dev/null
  return "$_status"
}

# The first directory the payload FILE names: a "cwd" string, or the first string of a
# "workspace_roots" / "workspaceRoots" list. The first one in the file: the harnesses put these
# fields before the prompt and the tool output. A path with an escape in it is not read.
payload_directory() {
  awk 'BEGIN { RS = "\001" } NR == 1 {
    n = split("cwd workspace_roots workspaceRoots", keys, " ")
    for (k = 1; k <= n; k++) {
      at = index($0, "\"" keys[k] "\"")
      if (!at) continue
      rest = substr($0, at + length(keys[k]) + 2, 4096)
      if (match(rest, /^[ \t\r\n]*:[ \t\r\n]*(\[[ \t\r\n]*)?"[^"\\]*"/)) {
        value = substr(rest, 1, RLENGTH)
        sub(/^[^"]*"/, "", value)
        sub(/"$/, "", value)
        if (value != "") { print value; exit }
      }
    }
  }' "$1" 2>/dev/null
}

# percent_encode TEXT: TEXT with every byte but A-Z a-z 0-9 _ ~ - as %XX (a header value and a
# spool file name alike). Shell builtins only, bar one printf per unusual byte.
percent_encode() {
  _rest=$1
  _out=
  while [ -n "$_rest" ]; do
    _tail=${_rest#?}
    _c=${_rest%"$_tail"}
    _rest=$_tail
    case $_c in
      [A-Za-z0-9_~-]) _out=$_out$_c ;;
      /) _out=$_out%2F ;;
      .) _out=$_out%2E ;;
      :) _out=$_out%3A ;;
      @) _out=$_out%40 ;;
      ' ') _out=$_out%20 ;;
      *) _out=$_out%$(printf '%02X' "'$_c") ;;
    esac
  done
  printf '%s' "$_out"
}

project_of() {
  project=
  _found=${MEMORY_BANK_PROJECT:-}
  if [ -z "$_found" ]; then
    _dir=$(payload_directory "$1")
    case $_dir in /*) ;; *) return 0 ;; esac
    [ -d "$_dir" ] && command -v git >/dev/null 2>&1 || return 0
    # The harness's own git settings are not this directory's.
    unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_COMMON_DIR
    _limit=${MEMORY_BANK_GIT_TIMEOUT:-0.3}
    _found=$(bounded "$_limit" git -C "$_dir" remote get-url origin 2>/dev/null)
    _status=$?
    if [ -n "$_found" ] && [ "$_status" -eq 0 ]; then
      # Without the scheme and the credentials (user:token@) before the host; a local path stays a path.
      case $_found in [A-Za-z]*://*) _found=${_found#*://} ;; esac
      _host=${_found%%/*}
      case $_host in *@*) _found=${_host##*@}${_found#"$_host"} ;; esac
    elif [ "$_status" -lt 124 ]; then
      _found=$(bounded "$_limit" git -C "$_dir" rev-parse --show-toplevel 2>/dev/null) || _found=
    else
      _found=
    fi
  fi
  case $_found in '' | *'
'*) return 0 ;; esac
  # A key this long is no project anyone's scripts send (the service ignores it).
  [ ${#_found} -le 1024 ] || return 0
  project=$(percent_encode "$_found")
}
