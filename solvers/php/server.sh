#!/bin/sh
# A private MariaDB server and the PHP solver over HTTP, for trying the MySQL dump on this machine
# (`make sql-up`, `make sql-down`): nothing system-wide, no network port for the database.
#
#   solvers/php/server.sh up BUILD_DIR PORT LADDERS   start both (when not running), load the dump, say how to use them
#   solvers/php/server.sh down BUILD_DIR              stop both
#
# Writes under BUILD_DIR/mariadb/: data/ (the server's files), mysqld.sock (its one way in: skip-networking),
# error.log, mysqld.pid; php.pid and php.log for `php -S 127.0.0.1:PORT`. The dump is BUILD_DIR/ladder-mysql.sql
# (written by LADDERS export-sql from BUILD_DIR/export), loaded into database `ladders` each time.
set -eu
action=$1
build=$(cd "$2" 2>/dev/null && pwd) || { echo "error: $2 does not exist: build first (make build)" >&2; exit 2; }
home=$build/mariadb
sock=$home/mysqld.sock
here=$(cd "$(dirname "$0")" && pwd)
user=$([ "$(id -u)" = 0 ] && echo --user=root || true)
me=$(id -un)  # the database account of the same name, known through the socket (as root is to root)
client="mariadb --no-defaults --socket=$sock -u $me"

running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

if [ "$action" = down ]; then
    if running "$home/php.pid"; then kill "$(cat "$home/php.pid")"; echo "stopped the PHP solver's server"; fi
    rm -f "$home/php.pid"
    if [ -S "$sock" ]; then
        mariadb-admin --no-defaults --socket="$sock" -u "$me" shutdown && echo "stopped MariaDB ($sock)"
    fi
    exit 0
fi

port=$3
ladders=$4
for tool in mariadb mariadb-admin mariadb-install-db php; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing: make test-sql installs MariaDB and PHP" >&2; exit 2; }
done
mariadbd=$(command -v mariadbd || echo /usr/sbin/mariadbd)
[ -f "$build/export/manifest.json" ] || { echo "error: no export in $build/export: build first (make build)" >&2; exit 3; }
if [ ${#sock} -gt 100 ]; then
    echo "error: the socket path $sock is over 100 characters (a unix socket's limit is 107): use a shorter build folder" >&2
    exit 2
fi
mkdir -p "$home"
if [ ! -d "$home/data/mysql" ]; then
    mariadb-install-db --no-defaults --datadir="$home/data" --skip-test-db \
        --auth-root-authentication-method=socket --auth-root-socket-user="$me" $user >"$home/install.log" 2>&1 \
        || { echo "error: mariadb-install-db failed: see $home/install.log" >&2; exit 1; }
fi
if ! [ -S "$sock" ] || ! $client -e 'SELECT 1' >/dev/null 2>&1; then
    "$mariadbd" --no-defaults --datadir="$home/data" --socket="$sock" --skip-networking \
        --pid-file="$home/mysqld.pid" --log-error="$home/error.log" $user &
    tries=0
    until $client -e 'SELECT 1' >/dev/null 2>&1; do
        tries=$((tries + 1))
        [ $tries -lt 600 ] || { echo "error: MariaDB did not start: see $home/error.log" >&2; exit 1; }
        sleep 0.1
    done
fi
"$ladders" export-sql --export "$build/export" --out "$build/ladder-mysql.sql"
$client -e 'CREATE DATABASE IF NOT EXISTS ladders CHARACTER SET utf8mb4'
$client ladders <"$build/ladder-mysql.sql" >/dev/null
if ! running "$home/php.pid"; then
    # php -S serves one request at a time per worker: PHP_CLI_SERVER_WORKERS forks that many.
    LADDERS_SOCKET=$sock LADDERS_DB=ladders PHP_CLI_SERVER_WORKERS=${PHP_CLI_SERVER_WORKERS:-4} \
        php -S "127.0.0.1:$port" "$here/ladder.php" >"$home/php.log" 2>&1 &
    echo $! >"$home/php.pid"
fi
shown=${sock#"$PWD"/}  # relative when under the current folder, as the README's lines
cat <<EOF
MariaDB runs on $sock (no network port), database ladders loaded from $build/ladder-mysql.sql.
  mariadb --socket=$shown ladders -e 'SELECT word, rareness FROM words WHERE word = "COLD"'
  php solvers/php/ladder.php --socket=$shown --db=ladders cold warm
  curl 'http://127.0.0.1:$port/?from=cold&to=warm'
make sql-down stops both.
EOF
