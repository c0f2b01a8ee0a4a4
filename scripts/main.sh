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
#   bash scripts/main.sh --grid          # the scale grid (opt-in, ~15 min: docs/scaling.md): instances {1,2,4} x KEM
#                                        # {X-Wing, ML-KEM-768} x store {memory, Redis, Redis Cluster}, each
#                                        # server set started here, the saturation stage (payloads 1 KB and
#                                        # 100 KB) run per cell; bench/grid.js assembles grid.json + report.html.
#     --grid-instances 1,2 --grid-kems xwing --grid-stores memory,redis   # a subset of the grid
#   MAIN_SKIP_BUILD=1 bash scripts/main.sh   # reuse existing builds (development)
#
# Grid, memory store with more than one instance: sessions live in one process, so each bench
# client keeps to one instance (`--sticky`, session affinity as a sticky load balancer would give);
# the Redis cells route every request to the next instance (shared store). A cell whose servers or
# store cannot start stays in the grid as "not run" with the reason.
#
# Idempotent; works on a fresh machine of this kind (scripts/setup.sh installs what is missing).
# Pitfall: every server is started in its own process group (setsid) and its pid kept for the exit
# trap; a server started without both outlives the job.
# Server logs: bench/results/server-*.log (gitignored).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export NEXT_TELEMETRY_DISABLED=1 TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
log() { printf '\033[1m[main]\033[0m %s\n' "$*" >&2; }

use_redis=0
use_cluster=0
use_grid=0
grid_instances="1,2,4"
grid_kems="xwing,mlkem768"
grid_stores="memory,redis,cluster"
bench_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --redis) use_redis=1 ;;
    --redis-cluster) use_cluster=1 ;;
    --grid) use_grid=1 ;;
    --grid-instances) grid_instances="$2"; shift ;;
    --grid-kems) grid_kems="$2"; shift ;;
    --grid-stores) grid_stores="$2"; shift ;;
    *) bench_args+=("$1") ;;
  esac
  shift
done
if [ "$use_redis" = 1 ] && [ "$use_cluster" = 1 ]; then log "--redis and --redis-cluster exclude each other"; exit 2; fi
if [ "$use_grid" = 1 ] && { [ "$use_redis" = 1 ] || [ "$use_cluster" = 1 ]; }; then log "--grid runs every store itself; drop --redis / --redis-cluster"; exit 2; fi

pids=()
cluster_dirs=()
stop_pids() { # stop_pids PID... : each was started in its own process group (setsid)
  local pid
  for pid in "$@"; do
    [ -n "$pid" ] || continue
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "$@"; do
    [ -n "$pid" ] || continue
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  done
}
forget_pids() { # forget_pids PID... : drop stopped processes from the exit trap's list
  local keep=() p q drop
  for p in "${pids[@]:-}"; do
    drop=0
    for q in "$@"; do [ "$p" = "$q" ] && drop=1; done
    [ "$drop" = 1 ] || keep+=("$p")
  done
  pids=("${keep[@]:-}")
}
cleanup() {
  local code=$?
  stop_pids "${pids[@]:-}"
  # the Redis Cluster nodes' working dirs (nodes.conf), once their servers are gone
  for d in "${cluster_dirs[@]:-}"; do [ -n "$d" ] && rm -rf "$d"; done
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

keygen_var() { # keygen_var VAR [KEM]: one value of `nen keygen` output (quotes stripped)
  local kem_args=()
  [ -n "${2:-}" ] && kem_args=(--kem "$2")
  # never fails: an empty answer is handled by the caller (warning, or the cell is "not run")
  { node packages/server/dist/cli.js keygen "${kem_args[@]}" 2>/dev/null | sed -n "s/^$1=//p" | head -1 | sed "s/^['\"]//; s/['\"]$//"; } || true
}

store_key="$(keygen_var NEN_STORE_KEY)"
base_env=(NEN_BENCH_METRICS=1 NEN_HANDSHAKE_RATE=100000000 NODE_ENV=production)
# Redis deployments: the same key wrapping session secrets at rest on every instance.
[ -n "$store_key" ] && base_env+=("NEN_STORE_KEY=$store_key")

# --- stores: each sets store_pids, store_url ("" for memory) and redis_nodes (host:port,...) ---
store_pids=()
store_url=""
redis_nodes=""
start_redis() {
  command -v redis-server >/dev/null || { log "redis-server is not installed (scripts/setup.sh installs it)"; return 1; }
  local rport
  rport="$(free_port)"
  log "starting redis-server on 127.0.0.1:$rport"
  setsid redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --protected-mode yes >"bench/results/server-redis.log" 2>&1 &
  pids+=($!); store_pids=($!)
  local ok=0
  for _ in $(seq 1 50); do redis-cli -p "$rport" ping >/dev/null 2>&1 && { ok=1; break; }; sleep 0.1; done
  [ "$ok" = 1 ] || { log "redis-server did not answer PING"; return 1; }
  store_url="redis://127.0.0.1:$rport"
  redis_nodes="127.0.0.1:$rport"
}
start_cluster() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null || { log "redis-server / redis-cli are not installed (scripts/setup.sh installs them)"; return 1; }
  local cluster_dir seeds=() nodes=() n cport bport ok healthy node
  cluster_dir="$(mktemp -d)"
  cluster_dirs+=("$cluster_dir")
  store_pids=()
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
    pids+=($!); store_pids+=($!)
    ok=0
    for _ in $(seq 1 100); do redis-cli -p "$cport" ping >/dev/null 2>&1 && { ok=1; break; }; sleep 0.1; done
    [ "$ok" = 1 ] || { log "cluster node $n did not answer PING; log:"; tail -20 "bench/results/server-redis-cluster-$n.log" >&2; return 1; }
    nodes+=("127.0.0.1:$cport")
    seeds+=("redis://127.0.0.1:$cport")
  done
  log "redis-cli --cluster create ${nodes[*]} --cluster-replicas 0"
  timeout 60 redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >"bench/results/server-redis-cluster-create.log" 2>&1 \
    || { log "redis-cli --cluster create failed:"; tail -20 "bench/results/server-redis-cluster-create.log" >&2; return 1; }
  healthy=0
  for _ in $(seq 1 200); do
    healthy=1
    for node in "${nodes[@]}"; do
      redis-cli -p "${node##*:}" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || { healthy=0; break; }
    done
    [ "$healthy" = 1 ] && break
    sleep 0.1
  done
  [ "$healthy" = 1 ] || { log "the cluster did not reach cluster_state:ok within 20 s"; return 1; }
  log "Redis Cluster ready: ${nodes[*]} (3 masters, cluster_state:ok)"
  store_url="$(IFS=,; echo "${seeds[*]}")"
  redis_nodes="$(IFS=,; echo "${nodes[*]}")"
}
start_store() { # start_store memory|redis|cluster
  store_pids=(); store_url=""; redis_nodes=""
  case "$1" in
    memory) return 0 ;;
    redis) start_redis ;;
    cluster) start_cluster ;;
    *) log "unknown store $1"; return 1 ;;
  esac
}

# --- demo instances: start_instances N KEYS sets instance_pids and TARGET_URL ---
instance_pids=()
start_instances() {
  local count="$1" keys="$2" i port logf env_list
  env_list=("${base_env[@]}")
  [ -n "$keys" ] && env_list+=("NEN_SERVER_KEYS=$keys")
  [ -n "$store_url" ] && env_list+=("REDIS_URL=$store_url")
  instance_pids=()
  local targets=() ports=() logs=()
  for i in $(seq 1 "$count"); do
    port="$(free_port)"
    logf="bench/results/server-$i.log"
    log "starting demo instance $i: next start on 127.0.0.1:$port (log $logf)"
    (cd apps/demo && exec setsid env "${env_list[@]}" node node_modules/next/dist/bin/next start -H 127.0.0.1 -p "$port") >"$logf" 2>&1 &
    pids+=($!); instance_pids+=($!)
    ports+=("$port"); logs+=("$logf")
  done
  for i in $(seq 0 $((count - 1))); do
    wait_ready "http://127.0.0.1:${ports[$i]}/api/bench/metrics" "${instance_pids[$i]}" "${logs[$i]}" || return 1
    targets+=("http://127.0.0.1:${ports[$i]}")
  done
  TARGET_URL="$(IFS=,; echo "${targets[*]}")"
  export TARGET_URL
}

# --- the grid ---
run_grid() {
  local grid_dir cells store kem n label cell_dir keys sticky code reason
  grid_dir="bench/results/grid-$(date -u +%Y-%m-%dT%H-%M-%SZ)"
  mkdir -p "$grid_dir/cells"
  log "grid: instances {$grid_instances} x KEM {$grid_kems} x store {$grid_stores}; results in $grid_dir"
  not_run() { # not_run LABEL STORE KEM N REASON
    mkdir -p "$grid_dir/cells/$1"
    node -e 'const [f,store,kem,n,reason]=process.argv.slice(1);require("fs").writeFileSync(f,JSON.stringify({store,kem,instances:Number(n),reason})+"\n")' \
      "$grid_dir/cells/$1/not-run.json" "$2" "$3" "$4" "$5"
    log "cell $1: NOT RUN ($5)"
  }
  # keys for every KEM up front (one `nen keygen` each), so every cell of a KEM shares its key
  declare -A kem_keys=()
  for kem in ${grid_kems//,/ }; do kem_keys[$kem]="$(keygen_var NEN_SERVER_KEYS "$kem")"; done
  for store in ${grid_stores//,/ }; do
    reason=""
    start_store "$store" >"$grid_dir/store-$store.log" 2>&1 || reason="store $store did not start (see $grid_dir/store-$store.log)"
    for kem in ${grid_kems//,/ }; do
      keys="${kem_keys[$kem]:-}"
      for n in ${grid_instances//,/ }; do
        label="store=$store,kem=$kem,instances=$n"
        if [ -n "$reason" ]; then not_run "$label" "$store" "$kem" "$n" "$reason"; continue; fi
        if [ -z "$keys" ]; then not_run "$label" "$store" "$kem" "$n" "nen keygen --kem $kem gave no key"; continue; fi
        if ! start_instances "$n" "$keys"; then
          stop_pids "${instance_pids[@]:-}"; forget_pids "${instance_pids[@]:-}"
          not_run "$label" "$store" "$kem" "$n" "the $n demo instance(s) did not become ready (bench/results/server-*.log)"
          continue
        fi
        sticky=()
        [ "$store" = memory ] && [ "$n" -gt 1 ] && sticky=(--sticky)
        redis_args=()
        [ -n "$redis_nodes" ] && redis_args=(--redis "$redis_nodes")
        cell_dir="$grid_dir/cells/$label"
        mkdir -p "$cell_dir"
        log "cell $label: bench against $TARGET_URL"
        code=0
        node bench/run-all.js --only saturation --kem "$kem" --cell "$label" --out "$cell_dir" --no-history \
          "${sticky[@]}" "${redis_args[@]}" "${bench_args[@]}" 2> >(tee "$cell_dir/bench-stderr.log" >&2) || code=$?
        echo "$code" >"$cell_dir/exit-code"
        stop_pids "${instance_pids[@]}"; forget_pids "${instance_pids[@]}"
      done
    done
    stop_pids "${store_pids[@]:-}"; forget_pids "${store_pids[@]:-}"
  done
  node bench/grid.js "$grid_dir"
}

if [ "$use_grid" = 1 ]; then
  set +e
  run_grid
  code=$?
  set -e
  exit "$code"
fi

server_keys="$(keygen_var NEN_SERVER_KEYS)"
if [ -z "$server_keys" ]; then log "warning: nen keygen gave no NEN_SERVER_KEYS line; each instance uses its own generated key"; fi
if [ "$use_redis" = 1 ]; then
  start_store redis
  instances=2
elif [ "$use_cluster" = 1 ]; then
  start_store cluster
  instances=2
else
  instances=1
fi
# Memory growth by mode (plain / encrypted / handshake / stream), on its own fresh demo servers
# (default glibc, then MALLOC_ARENA_MAX=2): bench/results/memory-attribution.json, shown in the
# report ("Memory attribution by mode"). 10,000 requests per mode keep the main job within its
# 8 minutes (issue 21); the issue-sized run is `node bench/memory-attribution.js` (200,000 per
# mode, ~15 min).
ma_args=(--requests 10000 --handshakes 500 --streams 200)
[[ " ${bench_args[*]-} " == *" --quick "* ]] && ma_args=(--requests 10000 --handshakes 500 --streams 200 --no-arena2)
log "memory attribution by mode (bench/memory-attribution.js ${ma_args[*]-})"
node bench/memory-attribution.js "${ma_args[@]}" || log "warning: the memory attribution run failed; the report shows none"
start_instances "$instances" "$server_keys"
redis_args=()
[ -n "$redis_nodes" ] && redis_args=(--redis "$redis_nodes")
# Load levels at 6 s per mode (the bench's default is 10; `--duration 10` here restores it): every
# level and variant of the report, within the main job's 8 minutes with the ohttp stage (issue 21).
run_args=()
[[ " ${bench_args[*]-} " == *" --quick "* ]] || run_args=(--duration 6)
log "bench against $TARGET_URL"
set +e
node bench/run-all.js "${run_args[@]}" "${redis_args[@]}" "${bench_args[@]}"
code=$?
set -e
# The crypto backends side by side (Wasm, @noble, node:crypto) in the same results folder.
crypto_args=()
for a in "${bench_args[@]:-}"; do [ "$a" = "--quick" ] && crypto_args+=(--quick); done
log "crypto backends side by side (bench/crypto/run.js)"
node bench/crypto/run.js "${crypto_args[@]}" || code=1
exit "$code"
