#!/usr/bin/env bash
# Peak memory of plumscale-web while ten clients export a year of history at once.
#
# usage: Tests/web-load/history-memory.sh [BIN_DIR] [LIMIT_MB] [CLIENTS]
#   BIN_DIR   where plumscale-web was built (default .build/debug)
#   LIMIT_MB  the bound on the service's peak RSS (default 96; docs/web.md, "Security")
#   CLIENTS   exports at once (default 10)
#
# GET /api/history needs no login, so its cost is anyone's to ask for. The store gets a year of
# minutes for two pans (1,051,200 rows, about 60 MB of CSV), then ten clients fetch everything
# since 1970 at once, following the Link: rel="next" pages to the end. The kernel's high-water
# mark (VmHWM) of the service is the peak RSS; it must stay under LIMIT_MB. Slow (a minute or
# so), so it is a script and not part of `swift test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-.build/debug}
limit_mb=${2:-96}
count=${3:-10}
[[ -x $bin/plumscale-web ]] || { echo "history-memory: no $bin/plumscale-web; build first (swift build)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "history-memory: needs sqlite3 (apt-get install sqlite3)" >&2; exit 2; }
work=$(mktemp -d)
pid=
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/plumscale.toml" <<TOML
[web]
listen = "127.0.0.1:$port"
history = "$work/history.sqlite"
retention_days = 3650
auth_file = "$work/web-password"
TOML

start() {
    "$bin/plumscale-web" serve --config "$work/plumscale.toml" --socket "$work/no-daemon.sock" \
        >"$work/web.log" 2>&1 &
    pid=$!
    for _ in $(seq 300); do
        curl -s -o /dev/null "http://127.0.0.1:$port/api/poll" && return
        kill -0 "$pid" 2>/dev/null || { cat "$work/web.log" >&2; exit 1; }
        sleep 0.1
    done
    echo "history-memory: plumscale-web did not answer on port $port within 30 s" >&2
    exit 1
}

# The service creates the schema; then a year of minutes goes in behind its back.
start
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
year_start=1735689600  # 2025-01-01T00:00:00Z
sqlite3 "$work/history.sqlite" <<SQL
WITH RECURSIVE m(x) AS (SELECT 0 UNION ALL SELECT x + 60 FROM m WHERE x < 31536000 - 60)
INSERT INTO minute_summary (sensor, minute, min, mean, max, samples)
SELECT pan, $year_start + x, 100, 100.5, 101, 6 FROM m, (SELECT 'left' AS pan UNION ALL SELECT 'right');
SQL
rows=$(sqlite3 "$work/history.sqlite" 'SELECT COUNT(*) FROM minute_summary')
start
baseline=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")

export_all() {  # $1: client number; prints the rows received
    local next="/api/history?since=0" total=0 count
    while [[ -n $next ]]; do
        count=$(curl -sf -D "$work/headers.$1" "http://127.0.0.1:$port$next" | tail -n +2 | wc -l)
        total=$((total + count))
        next=$(sed -n 's/^Link: <\([^>]*\)>; rel="next".*/\1/p' "$work/headers.$1" | tr -d '\r')
    done
    echo "$total"
}

SECONDS=0
clients=()
for client in $(seq "$count"); do
    export_all "$client" >"$work/rows.$client" &
    clients+=($!)
done
wait "${clients[@]}"
for client in $(seq "$count"); do
    got=$(cat "$work/rows.$client")
    [[ $got == "$rows" ]] || { echo "history-memory: client $client got $got rows of $rows" >&2; exit 1; }
done
peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
echo "history-memory: $rows rows to each of $count clients in $SECONDS s; plumscale-web RSS at start" \
    "$((baseline / 1024)) MB, peak $((peak / 1024)) MB (limit $limit_mb MB)"
if ((peak / 1024 > limit_mb)); then
    echo "history-memory: peak RSS $((peak / 1024)) MB is above $limit_mb MB" >&2
    exit 1
fi
