#!/bin/sh
# Memory Bank recall hook: prints what the agent should add to its context for this hook event.
#
#   recall.sh <harness>   < hook payload (session start, prompt submitted)
#   harness: claude-code codex gemini-cli cursor cline kimi factory generic
#
# It POSTs the payload to $MEMORY_BANK_URL/v1/hooks/<harness>/recall and prints the answer,
#   {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"…"}}
# (each harness's own shape; Kimi's is the context as plain text), or {} when there is nothing
# to add (Kimi: no output, as it adds whatever a hook prints to the context) — and {} whenever the service is slow, down or refuses:
# it never blocks or breaks the session. It gives up after MEMORY_BANK_RECALL_TIMEOUT seconds
# (default 0.9; the harness has its answer within 1.5 s) and always exits 0. It does not forward
# the hook event (forward.sh does); the service records what it recalled in the session. It sends
# the session's project as forward.sh does (project.sh: git, cut off after 0.3 s), so the "last
# time in this project" note finds the same repository's sessions in any harness or checkout.
# Besides curl it runs only cat, awk and git: on a loaded machine every process started costs
# time the session waits for.
#
#   MEMORY_BANK_URL              default http://localhost:8787
#   MEMORY_BANK_API_KEY          unset or empty: print {} (the key needs memory:read and hooks:write)
#   MEMORY_BANK_RECALL_TIMEOUT   seconds, default 0.9
#   MEMORY_BANK_PROJECT          the project (default: the git remote of the payload's directory)
#   MEMORY_BANK_DEBUG=1          say on stderr why it printed {}

LC_ALL=C; export LC_ALL
umask 077

# Prints {} (Kimi: nothing; with MEMORY_BANK_DEBUG, why on stderr) and exits.
nothing() {
  [ -z "${MEMORY_BANK_DEBUG:-}" ] || echo "recall.sh: $1" >&2
  [ "$harness" = kimi ] || printf '{}\n'
  exit 0
}

harness=${1:-}
case $harness in claude-code | codex | gemini-cli | cursor | cline | kimi | factory | generic) ;; *) nothing "unknown harness '$harness'" ;; esac
[ -n "${MEMORY_BANK_API_KEY:-}" ] || nothing 'MEMORY_BANK_API_KEY is not set'
command -v curl >/dev/null 2>&1 || nothing 'curl is not installed'
url=${MEMORY_BANK_URL:-http://localhost:8787}
url=${url%/}
timeout=${MEMORY_BANK_RECALL_TIMEOUT:-0.9}

# The payload's project (project.sh, beside this script; without it the service takes the directory).
payload=$(cat)
project=
here=${0%/*}
[ "$here" != "$0" ] && [ -r "$here/project.sh" ] && . "$here/project.sh" && project_of - <<PAYLOAD
$payload
PAYLOAD

# The payload goes to curl on stdin; the key reaches curl as a config file on fd 3 (a
# here-document), so it is never on a command line (`ps`). --max-time bounds everything:
# name lookup, connect, answer. The status line is appended after the body.
answer=$(printf '%s' "$payload" | curl -s --config /dev/fd/3 -w '\n%{http_code} %{content_type}' --max-time "$timeout" \
  -X POST -H 'Content-Type: application/json' ${project:+-H} ${project:+"Memory-Bank-Project: $project"} \
  --data-binary @- "$url/v1/hooks/$harness/recall" 2>/dev/null 3<<CONFIG
header = "Authorization: Bearer $MEMORY_BANK_API_KEY"
CONFIG
) || nothing "no answer within ${timeout}s (curl exit $?)"
status=${answer##*
}
body=${answer%
*}
case $harness/$status in
  kimi/'200 text/plain'*) # Kimi adds what the hook prints to the context: the text itself
    [ -n "$body" ] || nothing 'nothing to add'
    printf '%s\n' "$body"
    exit 0
    ;;
  */'200 application/json'*) ;;
  *) nothing "answered '$status'" ;;
esac
# One JSON object, as the service writes it; anything else is not passed to the agent.
case $body in '{}') nothing 'nothing to add' ;; '{'*'}') ;; *) nothing 'the answer is not a JSON object' ;; esac
printf '%s\n' "$body"
exit 0
