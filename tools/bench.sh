#!/usr/bin/env bash
# Runs the benchmarks against local servers it starts on loopback, and stops them after.
# Usage: tools/bench.sh [engine-cost|goodput|scaling|memory|dashboard-overhead|push-latency|history-page|telemetry-cost|all] [memory document count]
# The dashboard benchmarks start the dashboard themselves and watch it with Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
# Benchmarks talk to loopback only; without this the Cosmos SDK probes the Azure VM metadata address (169.254.169.254).
export COSMOS_DISABLE_IMDS_ACCESS=true
# The history page and the telemetry cost need neither the local servers nor a browser.
if [ "${1:-all}" = history-page ] || [ "${1:-all}" = telemetry-cost ]; then
  exec dotnet run --project tools/Benchmarks -c Release -- "$1"
fi
servers=tools/servers
[ -d "$servers/node_modules/azurite" ] || (cd "$servers" && npm ci --no-audit --no-fund --loglevel=error)

case "${1:-all}" in
  dashboard-overhead|push-latency|all)
    if ! command -v chromium > /dev/null; then
      sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
      $sudo apt-get update && $sudo apt-get install -y chromium
    fi
    export BENCHWEB_CHROMIUM="${BENCHWEB_CHROMIUM:-$(command -v chromium)}" ;;
esac

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
table_port=$(free_port); cosmos_port=$(free_port)
work=$(mktemp -d)
(cd "$work" && exec node "$OLDPWD/$servers/node_modules/azurite/dist/src/table/main.js" --tableHost 127.0.0.1 --tablePort "$table_port" \
  --inMemoryPersistence --disableTelemetry --skipApiVersionCheck --loose --silent) &
azurite=$!
node "$servers/cosmos-server.js" "$cosmos_port" > /dev/null &
cosmos=$!
trap 'kill $azurite $cosmos 2>/dev/null; rm -rf "$work"' EXIT
sleep 2

# Azurite's well-known development key (public, from Microsoft's documentation).
export BENCH_TABLES_CONNECTION_STRING="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:$table_port/devstoreaccount1;"
export BENCH_COSMOS_ENDPOINT="http://127.0.0.1:$cosmos_port/"
dotnet run --project tools/Benchmarks -c Release -- "${1:-all}" "${2:-2000000}"
