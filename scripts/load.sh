#!/usr/bin/env bash
# Capacity figures of hoyito serve on loopback (docs/PERFORMANCE.md): memory
# per idle game and per open WebSocket, /api/health with 20,000 idle
# connections held (19,000 where the open-files limit is 20,000), a level-1 reply while 50 level-10 games think, and move
# latency over 1,000 active games. Builds with the optimised test profile.
# Takes about three minutes.
#
#   bash scripts/load.sh              # SQLite, every figure
#   bash scripts/load.sh --postgres   # PostgreSQL (a throwaway server started
#                                     # by scripts/postgres.sh): memory per idle
#                                     # game and move latency
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 65536 || ulimit -n "$(ulimit -Hn)"
echo "open files limit: $(ulimit -n)"
cargo build --release -p hoyito-cli --bin hoyito -p hoyito-server --example capacity --example loadtest
bin=target/release/hoyito
cap=target/release/examples/capacity
dir=$(mktemp -d)
pid=
pg=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "$pg" ] && bash scripts/postgres.sh stop "$dir/pg"; rm -rf "$dir"' EXIT
if [ "${1:-}" = --postgres ]; then
  pg=1
  chmod 755 "$dir" # the cluster belongs to the postgres user when run as root
  env_line=$(bash scripts/postgres.sh start "$dir/pg")
  eval "$env_line"
  echo "PostgreSQL on loopback (fsync and synchronous_commit off: test settings)"
fi

start() { # start PORT [flags…]: hoyito serve on 127.0.0.1:PORT, a fresh database
  local port=$1; shift
  rm -f "$dir"/load.db* "$dir/out"
  local db="$dir/load.db"
  if [ -n "$pg" ]; then # a fresh database on the PostgreSQL server
    psql "$HOYITO_TEST_POSTGRES" -q -c "DROP DATABASE IF EXISTS hoyito_load" -c "CREATE DATABASE hoyito_load"
    db="${HOYITO_TEST_POSTGRES%/*}/hoyito_load"
  fi
  HOYITO_LOG=off "$bin" serve --no-default-tables --addr "127.0.0.1:$port" --db "$db" "$@" >"$dir/out" &
  pid=$!
  until grep -q listening "$dir/out" 2>/dev/null; do sleep 0.1; done
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }
latency() {
  echo "== move latency over 1,000 active games (one move every 333 ms each: 3,000 moves/s offered)"
  start $port --create-rate 0 --create-quota 0 --move-rate 0 --max-connections-per-ip 0 --max-websockets-per-ip 0
  target/release/examples/loadtest --url "http://127.0.0.1:$port" --games 1000 --think-ms 333 --seconds 20
  stop
}

port=18191
echo "== memory per idle game"
start $port --create-rate 0 --create-quota 0
"$cap" --url "http://127.0.0.1:$port" --pid "$pid" idle-games 20000
stop
if [ -n "$pg" ]; then
  latency
  exit 0
fi
echo "== memory per open WebSocket"
start $port --max-websockets-per-ip 0 --max-websockets-per-ip-per-game 0
"$cap" --url "http://127.0.0.1:$port" --pid "$pid" sockets 5000
stop
echo "== /api/health with 19,000 idle connections held (200 per address; the client needs file descriptors too)"
start $port
"$cap" --url "http://127.0.0.1:$port" idle-conns 19000
stop
echo "== level-1 reply while 50 level-10 games think"
start $port
"$cap" --url "http://127.0.0.1:$port" engine-fairness 50
stop
latency
