#!/bin/sh
# Memory Bank hook forwarder: POSTs one agent hook payload to $MEMORY_BANK_URL/v1/hooks/<harness>.
#
#   forward.sh <harness>   < payload.json            harness: claude-code codex opencode gemini-cli cursor
#                                                     cline kimi factory kilo copilot generic
#   forward.sh codex '<json>'                       (Codex `notify` passes the payload as last argument)
#
# It never blocks or breaks the agent: it prints nothing, always exits 0 and gives up after ~3 s.
# A payload it cannot deliver is spooled (one file per event). While the spool is not empty,
# new payloads queue behind it and a background drainer sends it all, oldest first, to
# /v1/hooks/batch, so the service records a session's events in the order they happened.
#
#   MEMORY_BANK_URL        default http://localhost:8787
#   MEMORY_BANK_API_KEY    unset or empty: do nothing
#   MEMORY_BANK_SPOOL      default ~/.memory-bank/spool
#   MEMORY_BANK_SPOOL_MAX  default 10000 files (the oldest are dropped beyond)
#   MEMORY_BANK_PROJECT    the project of every event (default: the git remote of the payload's
#                          directory, else its repository's root; project.sh)
#   MEMORY_BANK_DEBUG=1    report the HTTP status and curl's errors on stderr (never stdout)

if [ -n "${MEMORY_BANK_DEBUG:-}" ]; then exec 1>&2; else exec >/dev/null 2>&1; fi
LC_ALL=C; export LC_ALL
umask 077

harness=${1:-}
case $harness in claude-code | codex | opencode | gemini-cli | cursor | cline | kimi | factory | kilo | copilot | generic) ;; *) exit 0 ;; esac
[ -n "${MEMORY_BANK_API_KEY:-}" ] || exit 0
url=${MEMORY_BANK_URL:-http://localhost:8787}
url=${url%/}
spool=${MEMORY_BANK_SPOOL:-${HOME:-/tmp}/.memory-bank/spool}
max=${MEMORY_BANK_SPOOL_MAX:-10000}
mkdir -p "$spool" || exit 0

# post PATH FILE SECONDS HEADER [HEADER]: POST the file, print the HTTP status (000 when unreachable).
# curl reads the API key from the file $auth, so that it does not show in `ps`.
post() {
  if command -v curl >/dev/null 2>&1; then
    curl -sS -o /dev/null -w '%{http_code}' --connect-timeout 1 --max-time "$3" -X POST \
      -H @"$auth" -H 'Content-Type: application/json' -H "$4" ${5:+-H} ${5:+"$5"} \
      --data-binary @- "$url$1" <"$2"
  elif command -v wget >/dev/null 2>&1; then
    wget -S -O /dev/null -T "$3" -t 1 --header="Authorization: Bearer $MEMORY_BANK_API_KEY" \
      --header='Content-Type: application/json' --header="$4" ${5:+"--header=$5"} --post-file="$2" "$url$1" 2>&1 |
      awk '$1 ~ /^HTTP\// { code = $2 } END { print code ? code : "000" }'
  else
    echo 000
  fi
}

# Spooled files are named <stamp>.<idempotency key>.<harness>[.<project>].json and hold the payload
# as received; <stamp> (see spool_stamp) makes their names sort in arrival order, <project> is the
# Memory-Bank-Project header the event had (percent-encoded: no dot, no slash).

# Nanoseconds since the epoch: hooks fire several times a second, and spooled events must
# drain in the order they happened. date +%N where date has it (GNU), else perl's clock
# (macOS), else whole seconds (same-second events then drain in any order).
spool_stamp() {
  stamp=$(date +%s%N 2>/dev/null)
  case $stamp in *[!0-9]* | '') stamp=$(perl -MTime::HiRes=time -e 'printf "%.0f", time * 1e9' 2>/dev/null) ;; esac
  case $stamp in *[!0-9]* | '') stamp=$(date +%s)000000000 ;; esac
  printf '%s' "$stamp"
}

# Writes the batch body for the spooled files given as arguments (≤ 256, oldest first) to stdout,
# stopping before 8 MiB, and the names of the files it covers to $work/list. Each event carries
# occurred_at (epoch ms, from its stamp): the service records when it happened, not when it drained.
batch_body() {
  printf '{"events":['
  awk -v list="$work/list" '
    function flush() {
      if (file == "") return
      if (length(buf) > 1048576) { print file > list; return } # refused by the service anyway: let it go
      if (bytes + length(buf) > 8000000) { full = 1; return }
      at = part[1] ~ /^[0-9]+$/ ? (length(part[1]) >= 16 ? substr(part[1], 1, length(part[1]) - 6) : part[1]) : ""
      project = parts == 5 && part[4] ~ /^[A-Za-z0-9_~%-]+$/ ? "\"project\":\"" part[4] "\"," : ""
      printf "%s{\"harness\":\"%s\",\"idempotency_key\":\"%s\",%s%s\"payload\":%s}", (bytes ? "," : ""), part[3], part[2], (at == "" ? "" : "\"occurred_at\":" at ","), project, buf
      print file > list
      bytes += length(buf) + 100
    }
    FNR == 1 { flush(); if (full) exit; file = FILENAME; name = file; sub(/.*\//, "", name); parts = split(name, part, "."); buf = "" }
    { buf = buf $0 "\n" }
    END { if (!full) flush() }
  ' "$@"
  printf ']}'
}

# Whether pid $1 is a live forward.sh (a drainer). A busy machine reuses pids within
# seconds: kill -0 alone would take any process that got the dead drainer's pid for it.
drainer_alive() {
  kill -0 "$1" 2>/dev/null || return 1
  command -v ps >/dev/null 2>&1 || return 0
  case $(ps -o args= -p "$1" 2>/dev/null) in *"${script_name}"*) return 0 ;; *) return 1 ;; esac
}
script_name=${0##*/}

# One drainer at a time, and never none while files wait. The lock cannot outlive its
# holder: flock(1) on $spool/.drain.flock where present (the kernel releases it when the
# drainer dies), else $spool/.drain.pid, made atomically with link(2) and holding the
# drainer's pid, taken over only once that process is no live forward.sh (drainer_alive)
# or the file has not been touched for 2 minutes (a live drainer touches it every round).
lock_take() {
  if command -v flock >/dev/null 2>&1; then
    exec 9>>"$spool/.drain.flock" || return 1
    flock -n 9 && return 0
    exec 9>&-
    return 1
  fi
  owner=$spool/.drain.pid
  mine=$spool/.drain.pid.$me
  echo "$me" >"$mine" || return 1
  ln "$mine" "$owner" 2>/dev/null && { rm -f "$mine"; return 0; }
  holder=
  read -r holder 2>/dev/null <"$owner"
  # Our own pid: a contender put our file back after we let go of it (below); it is ours.
  [ "$holder" = "$me" ] && { rm -f "$mine"; return 0; }
  if [ -n "$holder" ] && drainer_alive "$holder" && [ -z "$(find "$owner" -mmin +2 2>/dev/null)" ]; then
    rm -f "$mine"
    return 1
  fi
  # The holder is gone. Move its file aside (rename is atomic: one contender gets it) and
  # check it is the one we judged; if another contender had already replaced it, put it back
  # at once (read with a builtin, no process started in between: the holder may let go of
  # it meanwhile, and a file put back after that would outlive its drainer).
  stale=$spool/.drain.stale.$me
  if mv "$owner" "$stale" 2>/dev/null; then
    taken=
    read -r taken 2>/dev/null <"$stale"
    if [ "$taken" = "$holder" ]; then rm -f "$stale"; else ln "$stale" "$owner" 2>/dev/null; rm -f "$stale"; fi
  fi
  ln "$mine" "$owner" 2>/dev/null && { rm -f "$mine"; return 0; }
  rm -f "$mine"
  return 1
}

lock_release() {
  rm -rf "$work"
  if command -v flock >/dev/null 2>&1; then
    flock -u 9
    exec 9>&-
  else
    rm -f "$spool/.drain.pid"
  fi
}

# Sends spooled files in batches, oldest first, deleting each only once the service has it.
# After letting go of the lock it looks again: an event spooled while it held the lock had
# its own drainer turned away, so this one sends it.
drain() {
  me=$(exec sh -c 'echo $PPID') # this subshell's pid ($$ is the parent's)
  work=$spool/.drain.work
  rounds=0
  while lock_take; do
    mkdir -p "$work" || { lock_release; return 0; }
    auth=$work/auth
    printf 'Authorization: Bearer %s\n' "$MEMORY_BANK_API_KEY" >"$auth"
    sent=no
    while [ "$rounds" -lt 100 ]; do
      rounds=$((rounds + 1))
      [ -n "${owner:-}" ] && touch "$owner"
      set --
      for f in "$spool"/*.json; do
        [ -s "$f" ] || { rm -f "$f"; continue; }
        set -- "$@" "$f"
        [ $# -lt 256 ] || break
      done
      [ $# -gt 0 ] || { sent=yes; break; }
      : >"$work/list"
      batch_body "$@" >"$work/body"
      case $(post /v1/hooks/batch "$work/body" 20 'Accept: application/json') in
        2??) # delete what was sent, with one rm
          set --
          while IFS= read -r f; do set -- "$@" "$f"; done <"$work/list"
          rm -f "$@"
          ;;
        400 | 413) send_singly || break ;; # one bad file spoils a batch: send them one by one
        *) break ;;                        # the service is failing: the next hook tries again
      esac
    done
    lock_release
    [ "$sent" = yes ] || break
    set -- "$spool"/*.json
    [ -f "$1" ] || break
  done
  # A contender that moved our file aside just as we let go of it may have put it back.
  if [ -n "${owner:-}" ]; then
    holder=
    read -r holder 2>/dev/null <"$owner"
    [ "$holder" = "$me" ] && rm -f "$owner"
  fi
  return 0
}

# Sends the files of $work/list one at a time, each as a batch of one (so it keeps its occurred_at).
send_singly() {
  mv "$work/list" "$work/singles"
  while IFS= read -r f; do
    batch_body "$f" >"$work/one"
    case $(post /v1/hooks/batch "$work/one" 5 'Accept: application/json') in
      2?? | 400 | 413 | 415 | 422) rm -f "$f" ;;
      *) return 1 ;;
    esac
  done <"$work/singles"
}

# The payload: stdin, or the last argument when there are two or more (Codex notify).
tmp=$spool/.in.$$
auth=$spool/.auth.$$
trap 'rm -f "$tmp" "$auth"' EXIT
trap 'exit 0' HUP INT TERM
if [ $# -ge 2 ]; then
  for payload; do :; done
  printf '%s' "$payload" >"$tmp"
else
  cat >"$tmp"
fi
[ -s "$tmp" ] || exit 0

# The event's project (project.sh, beside this script): the same for every harness and checkout
# of one repository. Without project.sh, none: the service takes the payload's directory.
project=
here=${0%/*}
[ "$here" != "$0" ] && [ -r "$here/project.sh" ] && . "$here/project.sh" && project_of "$tmp"

# Spools the payload (temp file + mv = atomic), keeping at most $max files, oldest dropped.
spool_payload() {
  [ $(($(wc -c <"$tmp"))) -le 1048576 ] || return 0 # over 1 MiB the service refuses it anyway
  name=$stamp.$key.$harness
  [ -z "$project" ] || [ ${#project} -gt 180 ] || name=$name.$project # a file name holds 255 bytes
  mv "$tmp" "$spool/$name.json" || return 0
  set -- "$spool"/*.json # oldest first: names start with the stamp
  drop=$(($# - max))
  for f; do
    [ "$drop" -gt 0 ] || break
    rm -f "$f"
    drop=$((drop - 1))
  done
}

stamp=$(spool_stamp) # when the event arrived: its spool name, its order and its occurred_at
key=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')
[ -n "$key" ] || key=$(date +%s)x$$

# Older events wait in the spool: this one queues behind them, and a background drainer
# sends them all, in order, so the ledger keeps the order they happened in.
set -- "$spool"/*.json
if [ -f "$1" ]; then
  spool_payload
  [ -z "${MEMORY_BANK_DEBUG:-}" ] || echo "forward.sh: queued behind $# spooled event(s) in $spool; a background drainer sends them to $url/v1/hooks/batch"
  (drain) </dev/null >/dev/null 2>&1 &
  exit 0
fi

printf 'Authorization: Bearer %s\n' "$MEMORY_BANK_API_KEY" >"$auth"
code=$(post "/v1/hooks/$harness" "$tmp" 3 "Idempotency-Key: $key" "${project:+Memory-Bank-Project: $project}")
[ -z "${MEMORY_BANK_DEBUG:-}" ] || echo "forward.sh: POST $url/v1/hooks/$harness → HTTP $code"
case $code in
  2??) ;;                       # delivered
  400 | 413 | 415 | 422) ;;     # refused for good (malformed, too large): retrying cannot help
  *) # service down or failing: keep it for the drainer
    spool_payload
    [ -z "${MEMORY_BANK_DEBUG:-}" ] || echo "forward.sh: spooled in $spool"
    ;;
esac
exit 0
