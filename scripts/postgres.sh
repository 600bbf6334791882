#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the tests.
#
#   bash scripts/postgres.sh start DIR   # prints: export HOYITO_TEST_POSTGRES=postgres://hoyito@127.0.0.1:PORT/postgres
#   bash scripts/postgres.sh start DIR --tls CERT KEY --password PASSWORD
#   bash scripts/postgres.sh stop DIR
#
# DIR holds the cluster (initdb, trust authentication, fsync off: test data
# only) and its log. Needs Debian's postgresql package (initdb, pg_ctl,
# psql). PostgreSQL refuses to run as root: as root, the cluster belongs to
# the `postgres` system user.
#
# --tls CERT KEY: the server takes TLS connections with that certificate
# and key (PEM files), and refuses TCP connections without TLS.
# --password PASSWORD: the user hoyito has that password, which TCP
# connections must give (SCRAM); the Unix socket in DIR stays trusted.
set -euo pipefail
cmd=${1:?usage: postgres.sh start|stop DIR [--tls CERT KEY] [--password PASSWORD]}
dir=${2:?usage: postgres.sh start|stop DIR [--tls CERT KEY] [--password PASSWORD]}
shift 2
cert="" key="" password=""
while [ $# -gt 0 ]; do
  case $1 in
    --tls) cert=${2:?--tls CERT KEY}; key=${3:?--tls CERT KEY}; shift 3 ;;
    --password) password=${2:?--password PASSWORD}; shift 2 ;;
    *) echo "postgres.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

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
    options="-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c max_connections=200"
    method=trust
    [ -n "$password" ] && method=scram-sha-256
    if [ -n "$cert" ]; then
      install -m 600 "$cert" "$dir/data/server.crt"
      install -m 600 "$key" "$dir/data/server.key"
      [ "$(id -u)" = 0 ] && chown postgres "$dir/data/server.crt" "$dir/data/server.key"
      options="$options -c ssl=on -c ssl_cert_file=server.crt -c ssl_key_file=server.key"
      printf 'local all all trust\nhostnossl all all 127.0.0.1/32 reject\nhostssl all all 127.0.0.1/32 %s\n' "$method" \
        >"$dir/data/pg_hba.conf"
    elif [ -n "$password" ]; then
      printf 'local all all trust\nhost all all 127.0.0.1/32 %s\n' "$method" >"$dir/data/pg_hba.conf"
    fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 -o "$options" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    if [ -n "$password" ]; then
      # Through the Unix socket, trusted; the password never on a command line.
      printf "ALTER ROLE hoyito PASSWORD '%s'\n" "${password//\'/\'\'}" \
        | "$bin/psql" -q -X -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U hoyito -d postgres >/dev/null
    fi
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
