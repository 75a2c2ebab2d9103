# Part 7 of scripts/bench (issue 23), sourced by it: the same work on PostgreSQL beside SQLite,
# in the same rounds, each engine at the durability it ships with (issue 52): a throwaway server
# (scripts/postgres-cluster: its unix socket; its memory and WAL as Debian sets them up) with
# PostgreSQL's own defaults, fsync and synchronous_commit on, where the tests' clusters run with
# fsync off; SQLite as the programs open it (WAL, synchronous=NORMAL). It serves:
#   - registration through the shipped nginx locations (wrk, 64 connections, new token each
#     request) into liveactivity-fcgi on PostgreSQL, against the same on a SQLite file;
#   - a sweep of BENCH_PG_SWEEP_N (100000) due registrations to the HTTP/2 endpoint of part 2,
#     against the same rows in SQLite.
# BENCH_PG_FSYNC_OFF=1 runs the server with fsync off instead (the figures before issue 52), and
# the table says so: no deployment runs that way.
# Every figure counts its errors: a non-2xx answer, or a sweep that did not send every row.

pg_folder=""
pg_pid=""
pg_bin=""

# pg_debian_settings FOLDER: a cluster made by scripts/postgres-cluster init gets the server's
# memory and WAL as Debian's postgresql package sets them up (PostgreSQL's defaults), not the
# tests' small ones (16 MB of shared buffers for dozens of test databases, a checkpoint every
# 128 MB of WAL: a sweep of 100,000 writes about 200 MB). Later lines of postgresql.conf win.
pg_debian_settings() {
  printf '%s\n' "shared_buffers = 128MB" "max_wal_size = 1GB" >>"$1/data/postgresql.conf"
}

# pg_durability FOLDER: part 7's server commits as a deployment's does (PostgreSQL's defaults,
# which the tests' fsync = off of scripts/postgres-cluster replaces), unless BENCH_PG_FSYNC_OFF=1.
pg_durability() {
  if [ "${BENCH_PG_FSYNC_OFF:-0}" = 1 ]; then
    printf '%s\n' "fsync = off" >>"$1/data/postgresql.conf"
  else
    printf '%s\n' "fsync = on" "synchronous_commit = on" "full_page_writes = on" >>"$1/data/postgresql.conf"
  fi
}
pg_durability_label() {
  if [ "${BENCH_PG_FSYNC_OFF:-0}" = 1 ]; then echo "fsync OFF, not durable: no deployment's figure"
  else echo "fsync and synchronous_commit on, PostgreSQL's defaults; SQLite WAL, synchronous=NORMAL, as shipped"; fi
}

# Starts the throwaway server once; pg_uri DB names a database on it.
pg_start() {
  [ -n "$pg_pid" ] && return 0
  pg_folder="$work/postgres"
  mkdir -p "$pg_folder"
  # The server runs as nobody under root: it must pass through the bench's own folder.
  chmod 711 "$work"
  "$root/scripts/postgres-cluster" init "$pg_folder" >/dev/null
  pg_debian_settings "$pg_folder"
  pg_durability "$pg_folder"
  "$root/scripts/postgres-cluster" run "$pg_folder" >"$pg_folder/server.log" 2>&1 &
  pg_pid=$!
  pids+=("$pg_pid")
  "$root/scripts/postgres-cluster" wait "$pg_folder" "$pg_pid" 120
  pg_bin=$("$root/scripts/postgres-cluster" bindir)
}
pg_uri() { echo "postgresql://postgres@/$1?host=$pg_folder/socket"; }
pg_sql() { PGOPTIONS="-c client_min_messages=warning" "$pg_bin/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$pg_folder/socket" -U postgres -d "$1" -c "$2"; }
# pg_fresh DB [TEMPLATE]: DB dropped and made anew, empty or as a copy of TEMPLATE.
pg_fresh() {
  pg_sql postgres "DROP DATABASE IF EXISTS $1 WITH (FORCE)"
  pg_sql postgres "CREATE DATABASE $1${2:+ TEMPLATE $2}"
}

# pg_fill DB ROWS DUE: the rows fill() writes in SQLite, in a database the sweep has migrated.
pg_fill() {
  local db=$1 rows=$2 due=$3 now; now=$(($(date +%s) * 1000))
  pg_fresh "$db"
  sweep "$(pg_uri "$db")" env LIVEACTIVITY_SWEEP_DIR="$work/pg-sweep-$db" "$bin/liveactivity-sweep" >/dev/null
  # Wake targets (registration_token = push_token), the token made once per row in the subquery.
  pg_sql "$db" "INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
      expires_at, next_push_at)
    SELECT token, 'wake', token,
           CASE WHEN i % 10 = 0 THEN 'debug' ELSE 'charging' END, 'production',
           $now - (i * 7919 % 25200000), $now - (i * 7919 % 25200000) + 28800000,
           CASE WHEN i <= $due THEN $now - (i % 60000) ELSE $now + 3600000 END
    FROM (SELECT i, md5(random()::text) || lpad(to_hex(i), 32, '0') AS token FROM generate_series(1, $rows) AS i) AS r"
  pg_sql "$db" "$recount_sql"
  pg_sql "$db" "VACUUM ANALYZE push_targets"
}

postgres_run() {
  local n=${BENCH_PG_SWEEP_N:-100000} round summary sent start elapsed
  log "7 PostgreSQL beside SQLite: registration ($rounds rounds of ${duration}s, $connections connections), a sweep of $n"
  pg_start

  # Registration: each engine's responder behind its own nginx, warmed, then in turns.
  pg_fresh bench_registrations
  start_stack "$(pg_uri bench_registrations)"
  local pg_port=$stack_port pg_pids=$stack_pids
  start_stack "$work/pg-beside.sqlite"
  local sqlite_port=$stack_port sqlite_pids=$stack_pids
  for stack_port in $pg_port $sqlite_port; do run_wrk warmup /wakeup 2 "$connections" 997 >/dev/null; done
  # What autovacuum does within its first minute on any server (autovacuum_naptime): until a new
  # table is first analyzed, the planner has no statistics and plans each batch's lookup of its
  # keys as a scan of the whole table (700 of them in the first 6 s, 6.7 million rows read;
  # after it, none). Measured without it, the first rounds on a fresh server were the slowest.
  pg_sql bench_registrations "ANALYZE push_targets"
  for round in $(seq "$rounds"); do
    stack_port=$pg_port
    run_wrk pg.register /wakeup "$duration" "$connections" "$((round + 700))"
    stack_port=$sqlite_port
    run_wrk pg.sqlite_register /wakeup "$duration" "$connections" "$((round + 700))"
    log "  round $round: register on PostgreSQL $(latest pg.register.rps) req/s (p99 $(latest pg.register.p99) ms," \
      "errors $(latest pg.register.errors)), on SQLite $(latest pg.sqlite_register.rps) (p99 $(latest pg.sqlite_register.p99) ms)"
  done
  stack_pids=$pg_pids; stop_stack
  stack_pids=$sqlite_pids; stop_stack

  # The sweep: the same rows in each engine, a fresh copy per round.
  pg_fill bench_sweep_template "$n" "$n"
  fill "$work/pg-beside-template.sqlite" "$n" "$n"
  for round in $(seq "$rounds"); do
    pg_fresh bench_sweep bench_sweep_template
    rm -rf "$work/pg-sweep-run"
    start=$(now_ns)
    summary=$(sweep "$(pg_uri bench_sweep)" env LIVEACTIVITY_SWEEP_DIR="$work/pg-sweep-run" \
      /usr/bin/time -v -o "$work/time.txt" "$bin/liveactivity-sweep")
    elapsed=$(($(now_ns) - start))
    sent=$(field sent <<<"$summary" | head -1)
    record pg.sweep.errors "$((n - ${sent:-0}))"
    [ "$sent" = "$n" ] || log "the sweep on PostgreSQL sent ${sent:-?} of $n: $summary"
    record pg.sweep.rate "$(awk -v n="$n" -v ns="$elapsed" 'BEGIN { print n / (ns / 1e9) }')"
    record pg.sweep.rss_mb "$(awk '/Maximum resident/ { print $NF / 1024 }' "$work/time.txt")"

    copy_database "$work/pg-beside-template.sqlite" "$work/pg-beside-run.sqlite"
    rm -rf "$work/pg-beside-run.sqlite.sweep"
    start=$(now_ns)
    summary=$(sweep "$work/pg-beside-run.sqlite" "$bin/liveactivity-sweep")
    elapsed=$(($(now_ns) - start))
    sent=$(field sent <<<"$summary" | head -1)
    record pg.sqlite_sweep.errors "$((n - ${sent:-0}))"
    record pg.sqlite_sweep.rate "$(awk -v n="$n" -v ns="$elapsed" 'BEGIN { print n / (ns / 1e9) }')"
    log "  round $round: sweep of $n on PostgreSQL $(latest pg.sweep.rate) pushes/s, on SQLite $(latest pg.sqlite_sweep.rate)"
  done
}

pg_total() { awk -v k="$1" '$1 == k { s += $2 } END { print s + 0 }' "$results"; }

postgres_table() {
  local n=${BENCH_PG_SWEEP_N:-100000} errors
  echo
  echo "7. PostgreSQL beside SQLite (same rounds; a throwaway server on this host, its unix socket;"
  echo "   $(pg_durability_label))"
  printf '  %-36s %12s %10s %10s %10s %12s\n' "" "PostgreSQL" "p99 ms" "errors" "SQLite" "PG/SQLite"
  errors=$(pg_total pg.register.errors)
  printf '  %-36s %12s %10s %10s %10s %12s\n' "register (req/s, $connections connections)" "$(fmt "$(value pg.register.rps)")" \
    "$(fmt "$(value pg.register.p99)")" "$errors" "$(fmt "$(value pg.sqlite_register.rps)")" \
    "$(ratio "$(value pg.register.rps)" "$(value pg.sqlite_register.rps)")"
  printf '  %-36s %12s %10s %10s %10s %12s\n' "sweep of $n (pushes/s)" "$(fmt "$(value pg.sweep.rate)")" "" \
    "$(pg_total pg.sweep.errors)" "$(fmt "$(value pg.sqlite_sweep.rate)")" \
    "$(ratio "$(value pg.sweep.rate)" "$(value pg.sqlite_sweep.rate)")"
  echo "  errors: register $(verdict "$errors == 0"), SQLite register $(verdict "$(pg_total pg.sqlite_register.errors) == 0"), sweeps $(verdict "$(pg_total pg.sweep.errors) + $(pg_total pg.sqlite_sweep.errors) == 0")"
  local register sweep
  register=$(value pg.register.rps) sweep=$(value pg.sweep.rate)
  if [ "${BENCH_PG_FSYNC_OFF:-0}" = 1 ]; then
    echo "  goal (issues 35, 52): not judged: PostgreSQL ran with fsync off (BENCH_PG_FSYNC_OFF=1)"
    return 0
  fi
  echo "  goal (issues 35, 52): PostgreSQL >= 0.8x SQLite, each as durable as shipped: register $(verdict "$register >= 0.8 * $(value pg.sqlite_register.rps)")," \
    "sweep $(verdict "$sweep >= 0.8 * $(value pg.sqlite_sweep.rate)")"
}
