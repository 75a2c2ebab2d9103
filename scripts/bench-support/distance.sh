# Part 4 of scripts/bench, sourced by it (uses its helpers, $work, the endpoint and the fill
# function): the sweep at a distance. APNs is 10-150 ms away from most hosts, and then what
# limits a sweep is how many pushes it keeps in flight, not CPU (issue #10).
#
# For each RTT in BENCH_RTTS (ms; "0 10 100"), latency-forwarder.c sits between the clients and
# the endpoint of part 2 and adds that round trip. Through it, with the same BENCH_RTT_N due
# registrations (100000), the same headers, payload and device paths, each round measures:
#   - the sweep as shipped: one liveactivity-sweep run, no tuning variables (pushes/s, wall time,
#     peak RSS; every push not sent counts as an error);
#   - the same sweep with LIVEACTIVITY_APNS_CONCURRENCY=1000, the most it can be told;
#   - h2load -c 1 -m 1000: one connection, 1,000 streams, the HTTP/2 ceiling (in-flight / RTT);
#   - curl's command line, --http2 --parallel with --parallel-max 300 (the most curl 7.88 allows:
#     it silently lowers larger values to 300) and 100.
# Before the RTTs: h2load -m 1000 straight to the endpoint and through the forwarder at RTT 0,
# the check that the forwarder is not what limits the figures.
#
# And at 100 ms a smaller run, BENCH_RTT_SMALL_N due rows (20000: a minute's sweep of a large
# deployment, where the start - process, database, TLS handshake, the depth's ramp - weighs most),
# the sweep as shipped against h2load -c 1 -m 1000 of as many requests, in the same rounds
# (issue 35's goal: 0.9x h2load at 20,000 and at 100,000). In the same rounds, what a push costs
# in CPU (user + system time of the whole process, every thread, from wait4's rusage): the sweep;
# a minimal C client over the same libcurl with its easy handles made once and reused, only the
# URL set again (c-reference/push-client.c: libcurl's own floor); and h2load; the last two over as
# many connections as the sweep opens for that backlog, with as many streams in flight (issue 52's
# goal: at most 40 us a push, and at least 0.7x h2load's pushes/s over the same connections).
# Then the same three straight to the endpoint on loopback, the C client and h2load over one
# connection with 1,000 in flight: where issue 52 measured libcurl's floor (37-40 us a push).
# BENCH_RTT_CURL=0 leaves curl out of the RTT rounds (at 100 ms, curl 100 takes 100 s a round).

rtts=${BENCH_RTTS:-"0 10 100"}
rtt_n=${BENCH_RTT_N:-100000}
rtt_rounds=${BENCH_RTT_ROUNDS:-$rounds}
rtt_small_n=${BENCH_RTT_SMALL_N:-20000}
rtt_curl=${BENCH_RTT_CURL:-1}
# The sweep's connections for a backlog of N at 100 ms (APNsClientOptions: one per 5,000 due, at
# most four) and its depth there (InFlightWindow: 1.5 x what 10,000/s needs, 1,500).
small_connections=$(( rtt_small_n / 5000 < 1 ? 1 : (rtt_small_n / 5000 > 4 ? 4 : rtt_small_n / 5000) ))
small_depth=1500

# forwarder_start RTT: sets $forwarder_port and $forwarder_pid; stderr goes to $work/forwarder.log.
forwarder_start() {
  forwarder_port=$(free_port)
  "$work/latency-forwarder" "$forwarder_port" "$endpoint_port" "$1" 2>"$work/forwarder.log" &
  forwarder_pid=$!
  pids+=("$forwarder_pid")
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$forwarder_port") 2>/dev/null && return 0; sleep 0.05; done
  log "latency forwarder did not start: $(cat "$work/forwarder.log")"
  exit 1
}

# forwarder_stop KEY: stops it and records how late its chunks left (ms, mean and worst).
forwarder_stop() {
  stop "$forwarder_pid"
  local line; line=$(grep '^latency-forwarder: rtt_ms=' "$work/forwarder.log" || true)
  record "$1.late_mean_ms" "$(awk -v us="$(field late_mean_us <<<" $line")" 'BEGIN { print us / 1000 }')"
  record "$1.late_max_ms" "$(awk -v us="$(field late_max_us <<<" $line")" 'BEGIN { print us / 1000 }')"
}

# distance_h2load KEY PORT [N]: one connection, 1,000 streams, the first N device paths of the
# run (all of them: rtt_n) once each.
distance_h2load() {
  local out done2xx n=${3:-$rtt_n}
  head -n "$n" "$work/distance-uris.txt" | sed "s#@BASE@#https://127.0.0.1:$2#" >"$work/distance-uris-now.txt"
  out=$(h2load -n "$n" -c 1 -m 1000 -d "$work/payload.json" "${headers[@]}" -H "authorization: bearer $jwt" \
    -H "apns-expiration: $(($(date +%s) + 300))" -i "$work/distance-uris-now.txt" 2>&1) || true
  done2xx=$(sed -n 's/^status codes: \([0-9]*\) 2xx.*/\1/p' <<<"$out")
  record "$1.rate" "$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' <<<"$out")"
  record "$1.errors" "$((n - ${done2xx:-0}))"
}

# distance_curl KEY PORT MAX: curl --parallel; every answer other than 200 is an error.
distance_curl() {
  local start elapsed ok
  sed "s#@BASE@#https://127.0.0.1:$2#" "$work/distance-urls.cfg" >"$work/distance-urls-now.cfg"
  start=$(now_ns)
  curl --http2 --parallel --parallel-max "$3" -s --cacert "$work/tls-cert.pem" -X POST \
    --data-binary @"$work/payload.json" "${headers[@]}" -H "authorization: bearer $jwt" \
    -H "apns-expiration: $(($(date +%s) + 300))" -w '%{response_code}\n' \
    -K "$work/distance-urls-now.cfg" >"$work/curl-codes.txt" 2>"$work/curl.err" || true
  elapsed=$(($(now_ns) - start))
  ok=$(grep -c '^200$' "$work/curl-codes.txt" || true)
  record "$1.rate" "$(awk -v n="$rtt_n" -v ns="$elapsed" 'BEGIN { print n / (ns / 1e9) }')"
  record "$1.errors" "$((rtt_n - ok))"
}

# distance_sweep KEY PORT [VAR=VALUE...]: one sweep of a fresh copy of the due registrations
# ($distance_db, rtt_n of them; DISTANCE_N and DISTANCE_DB in the environment for another set).
distance_sweep() {
  local key=$1 port=$2 start elapsed summary sent rtt_n=${DISTANCE_N:-$rtt_n}
  shift 2
  copy_database "${DISTANCE_DB:-$work/distance.sqlite}" "$work/run.sqlite"
  start=$(now_ns)
  summary=$(sweep "$work/run.sqlite" env APNS_HOST="https://127.0.0.1:$port" "$@" \
    /usr/bin/time -v -o "$work/time.txt" "${DISTANCE_SWEEP:-$bin/liveactivity-sweep}" 2>&1) || true
  elapsed=$(($(now_ns) - start))
  sent=$(field sent <<<"$summary" | head -1)
  [ "${sent:-0}" = "$rtt_n" ] || log "  $key: sent ${sent:-?} of $rtt_n: $(tail -c 300 <<<"$summary")"
  record "$key.rate" "$(awk -v n="${sent:-0}" -v ns="$elapsed" 'BEGIN { print n / (ns / 1e9) }')"
  record "$key.seconds" "$(awk -v ns="$elapsed" 'BEGIN { print ns / 1e9 }')"
  record "$key.rss_mb" "$(awk '/Maximum resident/ { print $NF / 1024 }' "$work/time.txt")"
  record "$key.cpu_us" "$(cpu_us_a_push "${sent:-0}")"
  record "$key.errors" "$((rtt_n - ${sent:-0}))"
}

# distance_cpu_refs KEY PORT N: the C libcurl client (handles reused) and h2load, each over
# $small_connections connections with $small_depth in flight, the first N device paths once each;
# pushes/s, CPU a push (rusage of that process alone) and errors (an answer other than 200).
distance_cpu_refs() {
  local key=$1 port=$2 n=$3 line out done2xx expiration; expiration=$(($(date +%s) + 300))
  head -n "$n" "$work/distance-uris.txt" | sed "s#@BASE@#https://127.0.0.1:$port#" >"$work/distance-uris-now.txt"
  line=$("$work/push-client" "$work/distance-uris-now.txt" "$small_connections" "$small_depth" \
    "$work/tls-cert.pem" "$jwt" "$expiration" 2>&1 | grep '^RESULT' || true)
  record "$key.c.rate" "$(awk -v n="$(field ok <<<"$line")" -v s="$(field seconds <<<"$line")" 'BEGIN { print (s > 0 ? n / s : 0) }')"
  record "$key.c.cpu_us" "$(field cpu_us <<<" $line")"
  record "$key.c.errors" "$((n - $(field ok <<<" ${line:-ok=0}")))"
  rm -f "$work/h2load-usage.txt"
  out=$("$work/rusage-run" "$work/h2load-usage.txt" "$(command -v h2load)" -n "$n" -c "$small_connections" \
    -m $((small_depth / small_connections)) -d "$work/payload.json" "${headers[@]}" -H "authorization: bearer $jwt" \
    -H "apns-expiration: $expiration" -i "$work/distance-uris-now.txt" 2>&1) || true
  done2xx=$(sed -n 's/^status codes: \([0-9]*\) 2xx.*/\1/p' <<<"$out")
  record "$key.h2same.rate" "$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' <<<"$out")"
  record "$key.h2same.cpu_us" "$(awk -v n="$n" '{ print $2 * 1000 / n }' "$work/h2load-usage.txt" 2>/dev/null || echo nan)"
  record "$key.h2same.errors" "$((n - ${done2xx:-0}))"
}

distance_run() {
  log "4/4 distance: N = $rtt_n through a forwarder adding RTT = $rtts ms, $rtt_rounds rounds each"
  cc -O2 -o "$work/latency-forwarder" "$support/latency-forwarder.c"
  cc -O2 -o "$work/push-client" "$support/c-reference/push-client.c" -lcurl
  cc -O2 -o "$work/rusage-run" "$support/rusage-run.c"
  fill "$work/distance.sqlite" "$rtt_n" "$rtt_n"
  sqlite3 "$work/distance.sqlite" "SELECT push_token FROM push_targets" >"$work/distance-tokens.txt"
  sed 's#^#@BASE@/3/device/#' "$work/distance-tokens.txt" >"$work/distance-uris.txt"
  awk '{ printf "url = \"@BASE@/3/device/%s\"\noutput = \"/dev/null\"\n", $1 }' "$work/distance-tokens.txt" >"$work/distance-urls.cfg"
  # A provider token as the sweep signs it, for curl and h2load (the endpoint checks none).
  copy_database "$work/distance.sqlite" "$work/run.sqlite"
  sqlite3 "$work/run.sqlite" "DELETE FROM push_targets WHERE registration_token NOT IN (SELECT registration_token FROM push_targets LIMIT 1)"
  sweep "$work/run.sqlite" "$bin/liveactivity-sweep" >/dev/null
  jwt=$(awk '{ print $4 }' "$work/run.sqlite.sweep/provider-token")  # "v1 key iat jwt", in the sweep's folder

  for round in $(seq "$rtt_rounds"); do
    distance_h2load dist.direct "$endpoint_port"
    forwarder_start 0
    distance_h2load dist.forwarded "$forwarder_port"
    forwarder_stop dist.forwarded
  done
  log "  forwarder check: h2load -m 1000 direct $(value dist.direct.rate) req/s, through it at RTT 0 $(value dist.forwarded.rate)"

  for rtt in $rtts; do
    forwarder_start "$rtt"
    for round in $(seq "$rtt_rounds"); do
      distance_sweep "dist.$rtt.sweep" "$forwarder_port"
      distance_sweep "dist.$rtt.sweep1000" "$forwarder_port" LIVEACTIVITY_APNS_CONCURRENCY=1000
      distance_h2load "dist.$rtt.h2load" "$forwarder_port"
      if [ "$rtt_curl" = 1 ]; then
        distance_curl "dist.$rtt.curl300" "$forwarder_port" 300
        distance_curl "dist.$rtt.curl100" "$forwarder_port" 100
      fi
      log "  RTT $rtt ms, round $round: sweep $(latest "dist.$rtt.sweep.rate") pushes/s" \
        "(errors $(latest "dist.$rtt.sweep.errors")), at 1000 $(latest "dist.$rtt.sweep1000.rate")," \
        "h2load $(latest "dist.$rtt.h2load.rate"), curl 300 $(latest "dist.$rtt.curl300.rate")," \
        "curl 100 $(latest "dist.$rtt.curl100.rate")"
    done
    forwarder_stop "dist.$rtt"
  done

  if grep -qw 100 <<<"$rtts" && [ "$rtt_small_n" -lt "$rtt_n" ]; then
    # The first rtt_small_n rows of the run's, due as they were.
    copy_database "$work/distance.sqlite" "$work/distance-small.sqlite"
    sqlite3 "$work/distance-small.sqlite" "DELETE FROM push_targets WHERE push_token NOT IN
      (SELECT push_token FROM push_targets ORDER BY push_token LIMIT $rtt_small_n); $recount_sql"
    sqlite3 "$work/distance-small.sqlite" "SELECT push_token FROM push_targets ORDER BY push_token" |
      sed 's#^#@BASE@/3/device/#' >"$work/distance-uris-small.txt"
    cp "$work/distance-uris.txt" "$work/distance-uris-all.txt"
    cp "$work/distance-uris-small.txt" "$work/distance-uris.txt"
    # The same rows in the build before's own schema (scripts/bench's baseline_template), so it
    # runs in these rounds across a schema step too.
    if [ -n "${BENCH_BASELINE_SWEEP:-}" ]; then
      baseline_template "$work/distance-small.sqlite" "$work/distance-small-baseline.sqlite"
    fi
    forwarder_start 100
    for round in $(seq "$rtt_rounds"); do
      DISTANCE_N=$rtt_small_n DISTANCE_DB="$work/distance-small.sqlite" distance_sweep dist.small.sweep "$forwarder_port"
      distance_h2load dist.small.h2load "$forwarder_port" "$rtt_small_n"
      distance_cpu_refs dist.small "$forwarder_port" "$rtt_small_n"
      if [ -n "${BENCH_BASELINE_SWEEP:-}" ]; then
        # The build before, on the same rows in the same round.
        DISTANCE_SWEEP=$BENCH_BASELINE_SWEEP DISTANCE_N=$rtt_small_n DISTANCE_DB="$work/distance-small-baseline.sqlite" \
          distance_sweep dist.small.baseline "$forwarder_port"
        log "  baseline sweep: $(latest dist.small.baseline.rate) pushes/s, $(latest dist.small.baseline.cpu_us) us CPU a push" \
          "(errors $(latest dist.small.baseline.errors))"
      fi
      log "  RTT 100 ms, N = $rtt_small_n, round $round: sweep $(latest dist.small.sweep.rate) pushes/s" \
        "(errors $(latest dist.small.sweep.errors), $(latest dist.small.sweep.cpu_us) us CPU a push)," \
        "h2load $(latest dist.small.h2load.rate); over $small_connections connections: C client" \
        "$(latest dist.small.c.rate) ($(latest dist.small.c.cpu_us) us, errors $(latest dist.small.c.errors))," \
        "h2load $(latest dist.small.h2same.rate) ($(latest dist.small.h2same.cpu_us) us," \
        "errors $(latest dist.small.h2same.errors))"
    done
    forwarder_stop dist.small
    # libcurl's floor where issue 52 measured it: straight to the endpoint on loopback (no
    # forwarder), one connection, 1,000 in flight; and the sweep there, on the same rows.
    for round in $(seq "$rtt_rounds"); do
      small_connections=1 small_depth=1000 distance_cpu_refs dist.floor "$endpoint_port" "$rtt_small_n"
      DISTANCE_N=$rtt_small_n DISTANCE_DB="$work/distance-small.sqlite" distance_sweep dist.floor.sweep "$endpoint_port"
      log "  loopback, N = $rtt_small_n, round $round: C client (1 connection, 1,000 in flight)" \
        "$(latest dist.floor.c.rate) pushes/s ($(latest dist.floor.c.cpu_us) us, errors $(latest dist.floor.c.errors));" \
        "h2load $(latest dist.floor.h2same.rate) ($(latest dist.floor.h2same.cpu_us) us, errors $(latest dist.floor.h2same.errors));" \
        "sweep $(latest dist.floor.sweep.rate) ($(latest dist.floor.sweep.cpu_us) us, errors $(latest dist.floor.sweep.errors))"
    done
    cp "$work/distance-uris-all.txt" "$work/distance-uris.txt"
  fi
}

# The table: a figure with any error in any round prints as FAILED with the error count.
distance_table() {
  local rtt s h c300 c100 best sw1000
  errors_of() { awk -v k="$1.errors" '$1 == k { s += $2 } END { print s + 0 }' "$results"; }
  rate_of() { if [ "$(errors_of "$1")" != 0 ]; then echo "FAILED:$(errors_of "$1")"; else fmt "$(value "$1.rate")"; fi; }
  echo
  echo "4. Distance (N = $rtt_n due pushes through a TCP forwarder adding the RTT; pushes/s; the sweep as shipped"
  echo "   and with LIVEACTIVITY_APNS_CONCURRENCY=1000, h2load -c1 -m1000, curl --http2 --parallel-max 300 (curl's most) and 100)"
  printf '  %-7s %9s %10s %9s %10s %9s %10s %8s %8s %8s %11s\n' "RTT ms" "sweep" "sweep@1000" "h2load" \
    "curl 300" "curl 100" "sw/h2load" "sw/curl" "sweep s" "peak MB" "fwd late ms"
  for rtt in $rtts; do
    s=$(value "dist.$rtt.sweep.rate"); h=$(value "dist.$rtt.h2load.rate")
    c300=$(value "dist.$rtt.curl300.rate"); c100=$(value "dist.$rtt.curl100.rate")
    best=$(awk -v a="$c300" -v b="$c100" 'BEGIN { print (a + 0 > b + 0) ? a : b }')
    printf '  %-7s %9s %10s %9s %10s %9s %10s %8s %8s %8s %11s\n' "$rtt" "$(rate_of "dist.$rtt.sweep")" \
      "$(rate_of "dist.$rtt.sweep1000")" "$(rate_of "dist.$rtt.h2load")" "$(rate_of "dist.$rtt.curl300")" \
      "$(rate_of "dist.$rtt.curl100")" "$(ratio "$s" "$h")" "$(ratio "$s" "$best")" \
      "$(fmt "$(value "dist.$rtt.sweep.seconds")")" "$(fmt "$(value "dist.$rtt.sweep.rss_mb")")" \
      "$(fmt "$(value "dist.$rtt.late_mean_ms")")/$(fmt "$(value "dist.$rtt.late_max_ms")")"
  done
  echo "  sw/curl: against the better of the two curl figures; fwd late: mean/worst delay past due of the forwarder's chunks."
  echo "  forwarder check: h2load -m1000 straight to the endpoint $(fmt "$(value dist.direct.rate)") req/s," \
    "through the forwarder at RTT 0 $(fmt "$(value dist.forwarded.rate)") ($(ratio "$(value dist.forwarded.rate)" "$(value dist.direct.rate)"))"
  sw1000=$(value dist.100.sweep1000.rate)
  [ -n "$sw1000" ] && [ "$sw1000" != nan ] && echo "  with LIVEACTIVITY_APNS_CONCURRENCY=1000 at 100 ms: $(ratio "$sw1000" "$(value dist.100.h2load.rate)") of h2load"
  local far=100 clean=1
  for rtt in $rtts; do [ "$(errors_of "dist.$rtt.sweep")" = 0 ] || clean=0; done
  if grep -qw 100 <<<"$rtts"; then
    s=$(value dist.100.sweep.rate); h=$(value dist.100.h2load.rate)
    echo "  target at $far ms: sweep >= 0.8x h2load (goal 1.0x): $(verdict "$s >= 0.8 * $h") ($(ratio "$s" "$h"));" \
      "100000 pushes in < 15 s (>= 6667/s): $(verdict "$s >= 6667")"
    echo "  goal (issue 35) at $far ms: sweep >= 0.9x h2load at $rtt_n: $(verdict "$s >= 0.9 * $h") ($(ratio "$s" "$h"))"
  fi
  if [ -n "$(value dist.small.sweep.rate)" ] && [ "$(value dist.small.sweep.rate)" != nan ]; then
    s=$(value dist.small.sweep.rate); h=$(value dist.small.h2load.rate)
    echo "  at 100 ms, N = $rtt_small_n: sweep $(rate_of dist.small.sweep)/s in $(fmt "$(value dist.small.sweep.seconds)") s," \
      "$(fmt "$(value dist.small.sweep.rss_mb)") MB; h2load -c1 -m1000 $(rate_of dist.small.h2load)/s"
    echo "  goal (issue 35) at 100 ms: sweep >= 0.9x h2load at $rtt_small_n:" \
      "$(verdict "$(errors_of dist.small.sweep) == 0 && $s >= 0.9 * $h") ($(ratio "$s" "$h"))"
  fi
  if [ -n "$(value dist.small.c.cpu_us)" ] && [ "$(value dist.small.c.cpu_us)" != nan ]; then
    local sc cc hc sr cr hr clean_refs
    cpu_of() { if [ "$(errors_of "$1")" != 0 ]; then echo "FAILED:$(errors_of "$1")"; else fmt "$(value "$1.cpu_us")"; fi; }
    sc=$(value dist.small.sweep.cpu_us); cc=$(value dist.small.c.cpu_us); hc=$(value dist.small.h2same.cpu_us)
    sr=$(value dist.small.sweep.rate); cr=$(value dist.small.c.rate); hr=$(value dist.small.h2same.rate)
    clean_refs=$(($(errors_of dist.small.sweep) + $(errors_of dist.small.c) + $(errors_of dist.small.h2same)))
    echo "  CPU a push at 100 ms, N = $rtt_small_n (user + system of the process, every thread; medians): sweep $(cpu_of dist.small.sweep) us;"
    echo "    over the sweep's $small_connections connections with $small_depth in flight: a C client over the same libcurl,"
    echo "    handles made once and reused (libcurl's floor) $(cpu_of dist.small.c) us, h2load $(cpu_of dist.small.h2same) us;" \
      "sweep / C $(ratio "$sc" "$cc"), sweep / h2load $(ratio "$sc" "$hc")"
    echo "    pushes/s there: sweep $(rate_of dist.small.sweep) (process start and last commits included), C client" \
      "$(rate_of dist.small.c), h2load $(rate_of dist.small.h2same); sweep / h2load $(ratio "$sr" "$hr"), C / h2load $(ratio "$cr" "$hr")"
    if [ -n "$(value dist.small.baseline.cpu_us)" ] && [ "$(value dist.small.baseline.cpu_us)" != nan ]; then
      echo "    the build before (BENCH_BASELINE_SWEEP), same rows and rounds: $(cpu_of dist.small.baseline) us a push," \
        "$(rate_of dist.small.baseline) pushes/s; this build / before: CPU $(ratio "$sc" "$(value dist.small.baseline.cpu_us)")," \
        "pushes/s $(ratio "$sr" "$(value dist.small.baseline.rate)")"
    fi
    if [ -n "$(value dist.floor.c.cpu_us)" ] && [ "$(value dist.floor.c.cpu_us)" != nan ]; then
      echo "    libcurl's floor where the issue measured it (loopback, no forwarder, 1 connection, 1,000 in flight;"
      echo "    the issue: 37-40 us): C client $(cpu_of dist.floor.c) us, $(rate_of dist.floor.c) pushes/s;" \
        "h2load $(cpu_of dist.floor.h2same) us, $(rate_of dist.floor.h2same) pushes/s;" \
        "the sweep there $(cpu_of dist.floor.sweep) us, $(rate_of dist.floor.sweep) pushes/s;" \
        "sweep / C $(ratio "$(value dist.floor.sweep.cpu_us)" "$(value dist.floor.c.cpu_us)")"
    fi
    echo "  goal (issue 52): CPU a push <= 40 us: $(verdict "$clean_refs == 0 && $sc <= 40") ($(fmt "$sc") us);" \
      ">= 0.7x h2load over the same connections: $(verdict "$clean_refs == 0 && $sr >= 0.7 * $hr") ($(ratio "$sr" "$hr"))"
  fi
  local cpus=""
  for rtt in $rtts; do cpus+="${cpus:+, }$rtt ms $(fmt "$(value "dist.$rtt.sweep.cpu_us")")"; done
  echo "  the sweep's CPU a push (us, every thread) at N = $rtt_n: $cpus"
  for rtt in 10 0; do
    grep -qw "$rtt" <<<"$rtts" || continue
    s=$(value "dist.$rtt.sweep.rate")
    best=$(awk -v a="$(value "dist.$rtt.curl300.rate")" -v b="$(value "dist.$rtt.curl100.rate")" 'BEGIN { print (a + 0 > b + 0) ? a : b }')
    echo "  target at $rtt ms: sweep >= 1.0x curl: $(verdict "$s >= $best") ($(ratio "$s" "$best"))"
  done
  local peak; peak=$(for rtt in $rtts; do value "dist.$rtt.sweep.rss_mb"; done | sort -g | tail -1)
  if [ "$rtt_n" -ge 100000 ]; then
    echo "  target: peak memory < 64 MB at $rtt_n: $(verdict "$peak < 64") ($(fmt "$peak") MB, the most of any RTT); no failed push: $(verdict "$clean == 1")"
    if awk "BEGIN { exit !($peak >= 64) }"; then
      echo "  why: the sweep keeps what the distance needs in flight (1,500 at 100 ms), each push about 12 kB"
      echo "  (libcurl 7.88's easy handle 5.4 kB, its receive buffer 1 kB and request state; the 16 kB upload"
      echo "  buffer is freed once the request is sent); LIVEACTIVITY_APNS_CONCURRENCY=1000 trades rate for memory (NOTES.md)"
    fi
  else
    echo "  target: peak memory < 64 MB applies at 100000 (this run: N = $rtt_n, $(fmt "$peak") MB); no failed push: $(verdict "$clean == 1")"
  fi
}
