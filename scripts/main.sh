#!/usr/bin/env bash
# The main job: set up, build, start the demo app (`next build` via turbo, then `next start`) on a
# free 127.0.0.1 port with the bench metrics route on, run the full bench against it, print the
# summary table and the report path, then the crypto backends side by side (bench/crypto), and
# stop everything it started (trap on exit).
#
#   bash scripts/main.sh                 # one instance, in-memory session store
#   bash scripts/main.sh --redis         # local redis-server on a free port + TWO instances sharing it
#   bash scripts/main.sh --redis-cluster # a 3-master Redis Cluster (redis-server --cluster-enabled yes on
#                                        # free loopback ports, redis-cli --cluster create, no replicas)
#                                        # + TWO instances with REDIS_URL = the comma-separated seed list
#   bash scripts/main.sh --quick         # any other flag goes to bench/run-all.js (--quick, --levels, --only ...)
#   MAIN_SKIP_BUILD=1 bash scripts/main.sh   # reuse existing builds (development)
#
# Idempotent; works on a fresh machine of this kind (scripts/setup.sh installs what is missing).
# Server logs: bench/results/server-*.log (gitignored).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
log() { printf '\033[1m[main]\033[0m %s\n' "$*" >&2; }

use_redis=0
use_cluster=0
bench_args=()
for a in "$@"; do
  case "$a" in
    --redis) use_redis=1 ;;
    --redis-cluster) use_cluster=1 ;;
    *) bench_args+=("$a") ;;
  esac
done
if [ "$use_redis" = 1 ] && [ "$use_cluster" = 1 ]; then log "--redis and --redis-cluster exclude each other"; exit 2; fi

pids=()
cleanup() {
  local code=$?
  for pid in "${pids[@]:-}"; do
    [ -n "$pid" ] || continue
    # each server was started in its own process group (setsid): stop the group, then make sure
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]:-}"; do
    [ -n "$pid" ] || continue
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  done
  # the Redis Cluster nodes' working dirs (nodes.conf), once their servers are gone
  if [ -n "${cluster_dir:-}" ]; then rm -rf "$cluster_dir"; fi
  exit "$code"
}
trap cleanup EXIT INT TERM

if [ "${MAIN_SKIP_BUILD:-0}" = 1 ]; then
  log "MAIN_SKIP_BUILD=1: using the existing builds"
else
  log "setup"
  bash scripts/setup.sh
  log "build (turbo: wasm, packages, demo app: next build)"
  # In a shared checkout another `next build` of the demo may hold Next's build lock: wait for it
  # (bounded) instead of failing; any other build error fails at once.
  build_log="$(mktemp)"
  for attempt in $(seq 1 30); do
    if pnpm turbo run build --output-logs=errors-only 2>&1 | tee "$build_log"; then break; fi
    if ! grep -q "Another next build process is already running" "$build_log" || [ "$attempt" = 30 ]; then
      rm -f "$build_log"; log "build failed"; exit 1
    fi
    log "another next build is running; retrying in 10 s ($attempt/30)"
    sleep 10
  done
  rm -f "$build_log"
fi

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

wait_ready() { # wait_ready URL PID LOGFILE
  local url="$1" pid="$2" logf="$3"
  for _ in $(seq 1 180); do
    if ! kill -0 "$pid" 2>/dev/null; then log "server exited early; last log lines:"; tail -40 "$logf" >&2; return 1; fi
    local code
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)"
    if [ "$code" = "200" ]; then return 0; fi
    sleep 0.5
  done
  log "server at $url not ready after 90 s; last log lines:"; tail -40 "$logf" >&2
  return 1
}

mkdir -p bench/results
server_keys="$(node packages/server/dist/cli.js keygen 2>/dev/null | sed -n 's/^NEN_SERVER_KEYS=//p' | head -1 | sed "s/^['\"]//; s/['\"]$//")"
if [ -z "$server_keys" ]; then log "warning: nen keygen gave no NEN_SERVER_KEYS line; each instance uses its own generated key"; fi

store_key="$(node packages/server/dist/cli.js keygen 2>/dev/null | sed -n 's/^NEN_STORE_KEY=//p' | head -1 | sed "s/^['\"]//; s/['\"]$//")"

server_env=(NEN_BENCH_METRICS=1 NEN_HANDSHAKE_RATE=100000000 NODE_ENV=production)
[ -n "$server_keys" ] && server_env+=("NEN_SERVER_KEYS=$server_keys")
# Redis deployments: the same key wrapping session secrets at rest on every instance.
[ -n "$store_key" ] && server_env+=("NEN_STORE_KEY=$store_key")

if [ "$use_redis" = 1 ]; then
  command -v redis-server >/dev/null || { log "redis-server is not installed (scripts/setup.sh installs it)"; exit 1; }
  rport="$(free_port)"
  log "starting redis-server on 127.0.0.1:$rport"
  setsid redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --protected-mode yes >"bench/results/server-redis.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 50); do redis-cli -p "$rport" ping >/dev/null 2>&1 && break; sleep 0.1; done
  server_env+=("REDIS_URL=redis://127.0.0.1:$rport")
  instances=2
elif [ "$use_cluster" = 1 ]; then
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null || { log "redis-server / redis-cli are not installed (scripts/setup.sh installs them)"; exit 1; }
  cluster_dir="$(mktemp -d)"
  seeds=()
  nodes=()
  for n in 1 2 3; do
    cport="$(free_port)"
    # the cluster bus defaults to port + 10000, which may be taken or above 65535: pick a free one
    bport="$(free_port)"
    mkdir -p "$cluster_dir/$n"
    log "starting cluster node $n: redis-server on 127.0.0.1:$cport (bus $bport)"
    setsid redis-server --port "$cport" --bind 127.0.0.1 --save '' --appendonly no --protected-mode yes \
      --dir "$cluster_dir/$n" --cluster-enabled yes --cluster-port "$bport" \
      --cluster-config-file "$cluster_dir/$n/nodes.conf" --cluster-node-timeout 5000 \
      >"bench/results/server-redis-cluster-$n.log" 2>&1 &
    pids+=($!)
    ok=0
    for _ in $(seq 1 100); do redis-cli -p "$cport" ping >/dev/null 2>&1 && { ok=1; break; }; sleep 0.1; done
    [ "$ok" = 1 ] || { log "cluster node $n did not answer PING; log:"; tail -20 "bench/results/server-redis-cluster-$n.log" >&2; exit 1; }
    nodes+=("127.0.0.1:$cport")
    seeds+=("redis://127.0.0.1:$cport")
  done
  log "redis-cli --cluster create ${nodes[*]} --cluster-replicas 0"
  timeout 60 redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >"bench/results/server-redis-cluster-create.log" 2>&1 \
    || { log "redis-cli --cluster create failed:"; tail -20 "bench/results/server-redis-cluster-create.log" >&2; exit 1; }
  healthy=0
  for _ in $(seq 1 200); do
    healthy=1
    for node in "${nodes[@]}"; do
      redis-cli -p "${node##*:}" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || { healthy=0; break; }
    done
    [ "$healthy" = 1 ] && break
    sleep 0.1
  done
  [ "$healthy" = 1 ] || { log "the cluster did not reach cluster_state:ok within 20 s"; exit 1; }
  log "Redis Cluster ready: ${nodes[*]} (3 masters, cluster_state:ok)"
  server_env+=("REDIS_URL=$(IFS=,; echo "${seeds[*]}")")
  instances=2
else
  instances=1
fi

targets=()
for i in $(seq 1 "$instances"); do
  port="$(free_port)"
  logf="bench/results/server-$i.log"
  log "starting demo instance $i: next start on 127.0.0.1:$port (log $logf)"
  (cd apps/demo && exec setsid env "${server_env[@]}" node node_modules/next/dist/bin/next start -H 127.0.0.1 -p "$port") >"$logf" 2>&1 &
  pids+=($!)
  wait_ready "http://127.0.0.1:$port/api/bench/metrics" "${pids[-1]}" "$logf"
  targets+=("http://127.0.0.1:$port")
done
TARGET_URL="$(IFS=,; echo "${targets[*]}")"
export TARGET_URL
log "bench against $TARGET_URL"
set +e
node bench/run-all.js "${bench_args[@]}"
code=$?
set -e
# The crypto backends side by side (Wasm, @noble, node:crypto) in the same results folder.
crypto_args=()
for a in "${bench_args[@]:-}"; do [ "$a" = "--quick" ] && crypto_args+=(--quick); done
log "crypto backends side by side (bench/crypto/run.js)"
node bench/crypto/run.js "${crypto_args[@]}" || code=1
exit "$code"
