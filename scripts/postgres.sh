#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the tests.
#
#   bash scripts/postgres.sh start DIR   # prints: export HOYITO_TEST_POSTGRES=postgres://hoyito@127.0.0.1:PORT/postgres
#   bash scripts/postgres.sh stop DIR
#
# DIR holds the cluster (initdb, trust authentication, fsync off: test data
# only) and its log. Needs Debian's postgresql package (initdb, pg_ctl).
# PostgreSQL refuses to run as root: as root, the cluster belongs to the
# `postgres` system user.
set -euo pipefail
cmd=${1:?usage: postgres.sh start|stop DIR}
dir=${2:?usage: postgres.sh start|stop DIR}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || bin=$(dirname "$(command -v pg_ctl)")
[ -x "$bin/pg_ctl" ] || { echo "postgres.sh: no pg_ctl (apt-get install postgresql)" >&2; exit 2; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case $cmd in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U hoyito --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "export HOYITO_TEST_POSTGRES=postgres://hoyito@127.0.0.1:$port/postgres"
    ;;
  stop)
    # Stopped already (or never started): nothing to do.
    [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    ;;
  *)
    echo "usage: postgres.sh start|stop DIR" >&2
    exit 2
    ;;
esac
