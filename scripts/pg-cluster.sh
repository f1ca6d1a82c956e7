#!/usr/bin/env bash
# A throwaway PostgreSQL cluster in a folder, on loopback, for the fleet and its tests.
#
#   scripts/pg-cluster.sh start DIR PORT   initdb (first time) and start; prints the database URL
#   scripts/pg-cluster.sh stop DIR         stop it (fast shutdown)
#   scripts/pg-cluster.sh restart DIR      stop and start again (the data stay)
#
# The server runs as a non-root user: as root, the 'postgres' user that Debian's postgresql package
# makes owns DIR. Trust authentication on 127.0.0.1 only; the database is 'stays', the user 'staysearch'.
# With openssl at hand the server also speaks TLS, with a certificate for 127.0.0.1 signed by a throwaway
# authority whose certificate is DIR/ca.pem (for sslmode=verify-full&sslrootcert=DIR/ca.pem).
set -euo pipefail

command=${1:?usage: pg-cluster.sh start DIR PORT | stop DIR | restart DIR}
dir=${2:?the cluster folder}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "pg-cluster.sh: PostgreSQL is not installed (apt-get install postgresql postgresql-contrib)" >&2; exit 69; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
start)
    port=${3:?the port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/initdb" -D "$dir/data" -U staysearch --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
        cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 200
shared_buffers = 256MB
fsync = on
synchronous_commit = on
CONF
        # TLS, for clients that ask (sslmode=require or verify-full): a throwaway certificate authority
        # ($dir/ca.pem, for sslrootcert) and a server certificate for 127.0.0.1 and localhost.
        if command -v openssl >/dev/null; then
            as_owner bash -c "
                cd '$dir/data' &&
                openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj '/CN=staysearch test CA' \
                    -keyout ca.key -out ca.pem 2>/dev/null &&
                openssl req -newkey rsa:2048 -nodes -subj '/CN=127.0.0.1' -keyout server.key -out server.csr 2>/dev/null &&
                printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >server.ext &&
                openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 \
                    -extfile server.ext -out server.crt 2>/dev/null &&
                chmod 600 server.key" || { echo "pg-cluster.sh: could not make the TLS certificates" >&2; exit 1; }
            cp "$dir/data/ca.pem" "$dir/ca.pem"
            chmod 644 "$dir/ca.pem"
            echo "ssl = on" >>"$dir/data/postgresql.conf"
        fi
        echo "$port" >"$dir/port"
    fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
    if ! "$bin/psql" -h 127.0.0.1 -p "$(cat "$dir/port")" -U staysearch -d postgres -Atqc "SELECT 1 FROM pg_database WHERE datname = 'stays'" | grep -q 1; then
        "$bin/createdb" -h 127.0.0.1 -p "$(cat "$dir/port")" -U staysearch stays
    fi
    echo "postgres://staysearch@127.0.0.1:$(cat "$dir/port")/stays"
    ;;
stop)
    [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    ;;
restart)
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null
    ;;
*)
    echo "pg-cluster.sh: unknown command '$command'" >&2; exit 64 ;;
esac
