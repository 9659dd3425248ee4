#!/usr/bin/env bash
# Runs every test. Installs what the tests need on a fresh machine (the pinned npm servers in
# tools/servers, Debian's Chromium for the browser tests), and lets the test fixtures start and stop
# Azurite, the Cosmos DB API server and the dashboard on free loopback ports.
set -euo pipefail
cd "$(dirname "$0")"

servers=tools/servers
if [ ! -d "$servers/node_modules/azurite" ] || [ ! -d "$servers/node_modules/@vercel/cosmosdb-server" ] \
   || [ "$servers/package-lock.json" -nt "$servers/node_modules/.package-lock.json" ]; then
  echo "Installing test servers (npm ci in $servers)..."
  (cd "$servers" && npm ci --no-audit --no-fund --loglevel=error)
fi

# The browser tests drive Debian's Chromium through Playwright; Playwright never downloads a browser here.
if ! command -v chromium > /dev/null; then
  echo "Installing Chromium (apt-get)..."
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update && $sudo apt-get install -y chromium
fi
export BENCHWEB_CHROMIUM="${BENCHWEB_CHROMIUM:-$(command -v chromium)}"

export BENCHWEB_SERVERS_DIR="$PWD/$servers"
# Tests talk to loopback only; without this the Cosmos SDK probes the Azure VM metadata address (169.254.169.254).
export COSMOS_DISABLE_IMDS_ACCESS=true
dotnet test BenchWeb.sln --configuration Release --logger "console;verbosity=normal" "$@"
