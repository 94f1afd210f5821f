#!/bin/sh
# Memory Bank hook forwarder: POSTs one agent hook payload to $MEMORY_BANK_URL/v1/hooks/<harness>.
#
#   forward.sh claude-code|codex|opencode|generic   < payload.json
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
#   MEMORY_BANK_DEBUG=1    report the HTTP status and curl's errors on stderr (never stdout)

if [ -n "${MEMORY_BANK_DEBUG:-}" ]; then exec 1>&2; else exec >/dev/null 2>&1; fi
LC_ALL=C; export LC_ALL
umask 077

harness=${1:-}
case $harness in claude-code | codex | opencode | generic) ;; *) exit 0 ;; esac
[ -n "${MEMORY_BANK_API_KEY:-}" ] || exit 0
url=${MEMORY_BANK_URL:-http://localhost:8787}
url=${url%/}
spool=${MEMORY_BANK_SPOOL:-${HOME:-/tmp}/.memory-bank/spool}
max=${MEMORY_BANK_SPOOL_MAX:-10000}
mkdir -p "$spool" || exit 0

# post PATH FILE SECONDS HEADER: POST the file, print the HTTP status (000 when unreachable).
# curl reads the API key from the file $auth, so that it does not show in `ps`.
post() {
  if command -v curl >/dev/null 2>&1; then
    curl -sS -o /dev/null -w '%{http_code}' --connect-timeout 1 --max-time "$3" -X POST \
      -H @"$auth" -H 'Content-Type: application/json' -H "$4" \
      --data-binary @- "$url$1" <"$2"
  elif command -v wget >/dev/null 2>&1; then
    wget -S -O /dev/null -T "$3" -t 1 --header="Authorization: Bearer $MEMORY_BANK_API_KEY" \
      --header='Content-Type: application/json' --header="$4" --post-file="$2" "$url$1" 2>&1 |
      awk '$1 ~ /^HTTP\// { code = $2 } END { print code ? code : "000" }'
  else
    echo 000
  fi
}

# Spooled files are named <stamp>.<idempotency key>.<harness>.json and hold the payload as received;
# <stamp> (see spool_stamp) makes their names sort in arrival order.
parse_name() {
  fkey=${1##*/} && fkey=${fkey#*.}
  fharness=${fkey#*.} && fharness=${fharness%.json}
  fkey=${fkey%%.*}
}

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
# stopping before 8 MiB, and the names of the files it covers to $lock/list.
batch_body() {
  printf '{"events":['
  awk -v list="$lock/list" '
    function flush() {
      if (file == "") return
      if (length(buf) > 1048576) { print file > list; return } # refused by the service anyway: let it go
      if (bytes + length(buf) > 8000000) { full = 1; return }
      printf "%s{\"harness\":\"%s\",\"idempotency_key\":\"%s\",\"payload\":%s}", (bytes ? "," : ""), part[3], part[2], buf
      print file > list
      bytes += length(buf) + 100
    }
    FNR == 1 { flush(); if (full) exit; file = FILENAME; name = file; sub(/.*\//, "", name); split(name, part, "."); buf = "" }
    { buf = buf $0 "\n" }
    END { if (!full) flush() }
  ' "$@"
  printf ']}'
}

# Sends spooled files in batches, deleting each only once the service has it. One drainer at a time.
drain() {
  lock=$spool/.drain.lock
  if ! mkdir "$lock" 2>/dev/null; then
    # Someone is draining. A lock older than 5 minutes was left by a drainer that died.
    [ -f "$lock/at" ] || date +%s >"$lock/at"
    [ $(($(date +%s) - $(cat "$lock/at"))) -gt 300 ] || return 0
    rm -rf "$lock" && mkdir "$lock" 2>/dev/null || return 0
  fi
  auth=$lock/auth
  printf 'Authorization: Bearer %s\n' "$MEMORY_BANK_API_KEY" >"$auth"
  rounds=0
  while [ "$rounds" -lt 100 ]; do
    rounds=$((rounds + 1))
    date +%s >"$lock/at"
    set --
    for f in "$spool"/*.json; do
      [ -s "$f" ] || { rm -f "$f"; continue; }
      set -- "$@" "$f"
      [ $# -lt 256 ] || break
    done
    [ $# -gt 0 ] || break
    : >"$lock/list"
    batch_body "$@" >"$lock/body"
    case $(post /v1/hooks/batch "$lock/body" 20 'Accept: application/json') in
      2??) # delete what was sent, with one rm
        set --
        while IFS= read -r f; do set -- "$@" "$f"; done <"$lock/list"
        rm -f "$@"
        ;;
      400 | 413) send_singly || break ;; # one bad file spoils a batch: send them one by one
      *) break ;;
    esac
  done
  rm -rf "$lock"
}

send_singly() {
  while IFS= read -r f; do
    parse_name "$f"
    case $(post "/v1/hooks/$fharness" "$f" 5 "Idempotency-Key: $fkey") in
      2?? | 400 | 413 | 415 | 422) rm -f "$f" ;;
      *) return 1 ;;
    esac
  done <"$lock/list"
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

# Spools the payload (temp file + mv = atomic), keeping at most $max files, oldest dropped.
spool_payload() {
  [ $(($(wc -c <"$tmp"))) -le 1048576 ] || return 0 # over 1 MiB the service refuses it anyway
  mv "$tmp" "$spool/$(spool_stamp).$key.$harness.json" || return 0
  set -- "$spool"/*.json # oldest first: names start with the stamp
  drop=$(($# - max))
  for f; do
    [ "$drop" -gt 0 ] || break
    rm -f "$f"
    drop=$((drop - 1))
  done
}

key=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')
[ -n "$key" ] || key=$(date +%s)x$$

# Older events wait in the spool: this one queues behind them, and a background drainer
# sends them all, in order, so the ledger keeps the order they happened in.
set -- "$spool"/*.json
if [ -f "$1" ]; then
  spool_payload
  (drain) </dev/null >/dev/null 2>&1 &
  exit 0
fi

printf 'Authorization: Bearer %s\n' "$MEMORY_BANK_API_KEY" >"$auth"
code=$(post "/v1/hooks/$harness" "$tmp" 3 "Idempotency-Key: $key")
[ -z "${MEMORY_BANK_DEBUG:-}" ] || echo "forward.sh: POST $url/v1/hooks/$harness → HTTP $code"
case $code in
  2??) ;;                       # delivered
  400 | 413 | 415 | 422) ;;     # refused for good (malformed, too large): retrying cannot help
  *) spool_payload ;;           # service down or failing: keep it for the drainer
esac
exit 0
