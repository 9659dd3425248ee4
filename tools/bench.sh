#!/usr/bin/env bash
# Runs the benchmarks against local servers it starts on loopback, and stops them after.
# Usage: tools/bench.sh [engine-cost|goodput|scaling|memory|dashboard-overhead|push-latency|push-latency-shared|push-fanout|push-fanout-shared|history-page|telemetry-cost|agents|client-health|health-cost|clock|engine-ceiling|redis-peer|table-peer|hot-path|sweep-noisy|all] [memory document count]
# The dashboard benchmarks start the dashboard themselves and watch it with Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
# Benchmarks talk to loopback only; without this the Cosmos SDK probes the Azure VM metadata address (169.254.169.254).
export COSMOS_DISABLE_IMDS_ACCESS=true
# The history page, the telemetry cost, client health, its cost, the run's clock and the push fan-out (the simulator, SignalR
# .NET clients) need neither the local servers nor a browser (client-health starts its own CPU hogs, `yes > /dev/null`, and stops them).
case "${1:-all}" in
  history-page|telemetry-cost|client-health|health-cost|clock|push-fanout)
    exec dotnet run --project tools/Benchmarks -c Release -- "$1" ;;
esac
# Sweeps beside two CPU hogs (tools/bench.sh sweep-noisy): each simulated account of samples/sweep-noisy swept alone, then beside two `yes` processes
# (killed by their PIDs after); each pair must recommend the same step. Results and logs stay in the folder it prints.
if [ "${1:-all}" = sweep-noisy ]; then
  dotnet build BenchWeb -c Release -nologo -v quiet > /dev/null
  out=$(mktemp -d); hogs=()
  trap '[ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null' EXIT
  echo "results in $out"
  for account in samples/sweep-noisy/account-*.json; do
    name=$(basename "$account" .json)
    for load in alone hogs; do
      if [ "$load" = hogs ]; then yes > /dev/null & hogs+=($!); yes > /dev/null & hogs+=($!); fi
      dotnet run --project BenchWeb -c Release --no-build -- run "$account" --sweep samples/sweep-noisy/concurrency.json \
        --summary "$out/$name-$load.json" > "$out/$name-$load.log" 2>&1 || true
      if [ ${#hogs[@]} -gt 0 ]; then kill "${hogs[@]}"; wait "${hogs[@]}" 2>/dev/null || true; hogs=(); fi
      echo "$name, $load:"; grep -E '^(Knee|Step [0-9]+( \(re-run\))?:)' "$out/$name-$load.log" | sed 's/^/  /' || true
    done
  done
  exit
fi
# The hot path's micro-benchmarks (BenchmarkDotNet): one insert through the engine on the no-op target per shape and load model,
# and the workload's own cost. Extra arguments go to BenchmarkDotNet (e.g. --filter '*Document*').
if [ "${1:-all}" = hot-path ]; then
  shift
  # Every benchmark unless the arguments choose (BenchmarkDotNet refuses a second --filter).
  filter=(--filter '*'); for argument in "$@"; do case "$argument" in --filter|-f) filter=() ;; esac; done
  cd tools/HotPath && exec dotnet run -c Release -- "${filter[@]}" --artifacts "$(mktemp -d)" "$@"
fi
# Runs spread over agents, and the push benchmarks across two instances: Debian's PostgreSQL and redis-server on free
# loopback ports, the dashboard processes (three agents; a runner and a viewers' instance) on them.
case "${1:-all}" in agents|push-latency-shared|push-fanout-shared) shared_servers=yes ;; *) shared_servers=no ;; esac
if [ "$shared_servers" = yes ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ "$1" = push-latency-shared ]; then
    command -v chromium > /dev/null || { $sudo apt-get update && $sudo apt-get install -y chromium; }
    export BENCHWEB_CHROMIUM="${BENCHWEB_CHROMIUM:-$(command -v chromium)}"
  fi
  ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1 || { $sudo apt-get update && $sudo apt-get install -y postgresql; }
  command -v redis-server > /dev/null || { $sudo apt-get update && $sudo apt-get install -y redis-server; }
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  pg=$(mktemp -d); as_postgres=""
  if [ "$(id -u)" -eq 0 ]; then chown postgres "$pg"; as_postgres="runuser -u postgres --"; fi
  pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  redis_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  $as_postgres "$pgbin/initdb" -D "$pg/data" -A trust -U postgres > /dev/null
  $as_postgres "$pgbin/pg_ctl" -D "$pg/data" -o "-p $pg_port -k $pg -c listen_addresses=127.0.0.1 -c max_connections=300" -l "$pg/log" -w start > /dev/null
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no > /dev/null &
  redis=$!
  trap '$as_postgres "$pgbin/pg_ctl" -D "$pg/data" -m fast -w stop > /dev/null; kill $redis 2>/dev/null; rm -rf "$pg"' EXIT
  export BENCH_POSTGRES="Host=127.0.0.1;Port=$pg_port;Username=postgres;Database=postgres"
  export BENCH_REDIS="127.0.0.1:$redis_port"
  dotnet run --project tools/Benchmarks -c Release -- "$1"
  exit
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
# Redis beside redis-benchmark (redis-peer, and all): Debian's redis-server and its redis-benchmark, no persistence.
redis=""
if [ "${1:-all}" = redis-peer ] || [ "${1:-all}" = all ]; then
  if ! command -v redis-benchmark > /dev/null; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update && $sudo apt-get install -y redis-server redis-tools
  fi
  redis_port=$(free_port)
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no > /dev/null &
  redis=$!
  export BENCH_REDIS_PORT="$redis_port"
fi
# Table transactions beside Microsoft's Node SDK (table-peer, and all): its pinned package, and Azurite's PID for its CPU time.
if [ "${1:-all}" = table-peer ] || [ "${1:-all}" = all ]; then
  [ -d tools/peers/node_modules/@azure/data-tables ] || (cd tools/peers && npm ci --no-audit --no-fund --loglevel=error)
  export BENCH_AZURITE_PID="$azurite"
fi
trap 'kill $azurite $cosmos $redis 2>/dev/null; rm -rf "$work"' EXIT
sleep 2

# Azurite's well-known development key (public, from Microsoft's documentation).
export BENCH_TABLES_CONNECTION_STRING="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:$table_port/devstoreaccount1;"
export BENCH_COSMOS_ENDPOINT="http://127.0.0.1:$cosmos_port/"
dotnet run --project tools/Benchmarks -c Release -- "${1:-all}" "${2:-2000000}"
