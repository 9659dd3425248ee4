#!/usr/bin/env bash
# Runs every test. Installs what the tests need on a fresh machine (the pinned npm servers in
# tools/servers, Debian's Chromium for the browser tests, Debian's redis-server for the Redis target's
# tests, Debian's docker-compose for the compose file's tests), and lets the test fixtures start and stop
# Azurite, the Cosmos DB API server, redis-server and the dashboard on free loopback ports.
set -euo pipefail
cd "$(dirname "$0")"

servers=tools/servers
if [ ! -d "$servers/node_modules/azurite" ] || [ ! -d "$servers/node_modules/@vercel/cosmosdb-server" ] \
   || [ "$servers/package-lock.json" -nt "$servers/node_modules/.package-lock.json" ]; then
  echo "Installing test servers (npm ci in $servers)..."
  (cd "$servers" && npm ci --no-audit --no-fund --loglevel=error)
fi

# Installs Debian's package $2 when the command $1 is missing (as root, or through sudo).
apt_install_for() {
  command -v "$1" > /dev/null && return
  echo "Installing $2 (apt-get)..."
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update && $sudo apt-get install -y "$2"
}

# The browser tests drive Debian's Chromium through Playwright; Playwright never downloads a browser here.
apt_install_for chromium chromium
export BENCHWEB_CHROMIUM="${BENCHWEB_CHROMIUM:-$(command -v chromium)}"

# The Redis target's tests start Debian's redis-server (with and without TLS) on free loopback ports.
apt_install_for redis-server redis-server
export BENCHWEB_REDIS_SERVER="${BENCHWEB_REDIS_SERVER:-$(command -v redis-server)}"

# The hosting tests validate docker-compose.yml with Debian's docker-compose (1.29: profiles, no Docker engine needed).
apt_install_for docker-compose docker-compose
export BENCHWEB_DOCKER_COMPOSE="${BENCHWEB_DOCKER_COMPOSE:-$(command -v docker-compose)}"

# Shared mode's tests start Debian's PostgreSQL (its programs are off the PATH) beside redis-server, and several
# dashboard processes as agents on them.
if ! ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1; then
  echo "Installing postgresql (apt-get)..."
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update && $sudo apt-get install -y postgresql
fi
export BENCHWEB_POSTGRES_BIN="${BENCHWEB_POSTGRES_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}"

export BENCHWEB_SERVERS_DIR="$PWD/$servers"
# Tests talk to loopback only; without this the Cosmos SDK probes the Azure VM metadata address (169.254.169.254).
export COSMOS_DISABLE_IMDS_ACCESS=true
# The whole output is kept in TestResults/test.log; when a test fails, its name and message are repeated at the end,
# where a CI log's tail shows them.
mkdir -p TestResults
set +e
dotnet test BenchWeb.sln --configuration Release --logger "console;verbosity=normal" "$@" 2>&1 | tee TestResults/test.log
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
  echo
  echo "=== What failed (the whole output is in TestResults/test.log) ==="
  awk '/^ *Failed [A-Za-z]/ { show = 1; lines = 0 } /^ *(Passed|Skipped) [A-Za-z]/ { show = 0 }
       show && lines < 40 { print; lines++ }' TestResults/test.log
fi
exit "$rc"
