#!/usr/bin/env bash
# Runs every test. Installs what the tests need on a fresh machine (the pinned npm servers in
# tools/servers), and lets the test fixtures start and stop Azurite and the Cosmos DB API server
# on free loopback ports.
set -euo pipefail
cd "$(dirname "$0")"

servers=tools/servers
if [ ! -d "$servers/node_modules/azurite" ] || [ ! -d "$servers/node_modules/@vercel/cosmosdb-server" ] \
   || [ "$servers/package-lock.json" -nt "$servers/node_modules/.package-lock.json" ]; then
  echo "Installing test servers (npm ci in $servers)..."
  (cd "$servers" && npm ci --no-audit --no-fund --loglevel=error)
fi

export BENCHWEB_SERVERS_DIR="$PWD/$servers"
dotnet test BenchWeb.sln --configuration Release --logger "console;verbosity=normal" "$@"
