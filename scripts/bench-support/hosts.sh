# Part 8 of scripts/bench (issue 24, docs/SEVERAL-HOSTS.md), sourced by it: one throwaway
# PostgreSQL (scripts/postgres-cluster) and the endpoint of part 2.
#   - A sweep of BENCH_HOSTS_ROWS (100,000) due rows by one host, then by two hosts started at
#     once (each with its own name and folder): pushes/s of the whole, the reference being the one
#     host's run in the same round; duplicates (pushes answered 200 beyond one per row, from the
#     hosts' summary lines, with every target's push count checked to be 1); and the claim and
#     outcome-write statements per push, counted by pg_stat_statements.
#   - What each push costs the database server itself, for the one-host and two-host sweeps:
#     the server's CPU (every process of the cluster, from the kernel's accounting: the
#     postmaster's own and its reaped backends' times, and the live processes'), its statements'
#     execution time by kind (claims, outcome writes, expiry, figures, the rest), statements
#     and WAL bytes, all per push; docs/PERFORMANCE.md's model of hosts per server is built on them.
#   - Churn (BENCH_CHURN_MINUTES, default 30; 0 skips it): 100,000 registrations of which a fifth
#     is pushed each minute by one host's sweep while a tenth is replaced (deleted, and new rows
#     made), as unregistrations, expiry and new Live Activities do; autovacuum as configured.
#     Reported: the push targets table's size against its live rows' (bloat), its dead rows,
#     autovacuum's runs, and the claim's mean time in the first and the last minute.
#   - How long wakes pause when a host dies: a host SIGKILLed as soon as it holds claimed rows of
#     its sweep of 10,000 (one push in flight at a time), another host's cron every minute from then on; the pause is the time from the kill
#     until the last row the dead host had claimed is pushed (by design the lease, 120 s, plus up
#     to a minute). Once per run: it takes minutes.
# A figure with any error (a row not pushed, a sweep exiting non-zero) is printed as failed.

hosts_rows=${BENCH_HOSTS_ROWS:-100000}
hosts_lease=${BENCH_HOSTS_LEASE:-120}
churn_minutes=${BENCH_CHURN_MINUTES:-30}

hosts_psql() { "$hosts_bindir/psql" -X -q -At -h "$hosts_pg/socket" -U postgres "$@"; }

hosts_run() {
  log "8 several hosts: $hosts_rows due rows swept by one host, then by two at once, $rounds rounds; then a host killed"
  hosts_bindir=$("$root/scripts/postgres-cluster" bindir)
  # The server's user (nobody, under root) must reach its folder: one of its own under /tmp.
  hosts_pg=$(mktemp -d "${TMPDIR:-/tmp}/liveactivity-bench-postgres-XXXXXX")
  "$root/scripts/postgres-cluster" init "$hosts_pg" >/dev/null
  pg_debian_settings "$hosts_pg"
  echo "shared_preload_libraries = 'pg_stat_statements'" >>"$hosts_pg/data/postgresql.conf"
  "$root/scripts/postgres-cluster" run "$hosts_pg" >"$work/postgres.log" 2>&1 &
  hosts_pid=$!
  pids+=("$hosts_pid")
  "$root/scripts/postgres-cluster" wait "$hosts_pg" "$hosts_pid" 120
  hosts_psql -c "CREATE DATABASE template_bench"
  local uri_base; uri_base="postgresql://postgres@$(printf '%s' "$hosts_pg/socket" | sed 's|/|%2F|g')"
  # The schema, as the sweep migrates it; then the rows, due now, registered over the last 7 hours.
  sweep "$uri_base/template_bench" LIVEACTIVITY_SWEEP_DIR="$work/migrate" "$bin/liveactivity-sweep" >/dev/null
  hosts_fill template_bench "$hosts_rows"
  hosts_psql -c "CREATE EXTENSION pg_stat_statements" template_bench

  local round start elapsed host sent total errors
  for round in $(seq "$rounds"); do
    for hosts in 1 2; do
      hosts_psql -c "DROP DATABASE IF EXISTS run" -c "CREATE DATABASE run TEMPLATE template_bench"
      hosts_psql -c "SELECT pg_stat_statements_reset()" run >/dev/null
      local cpu_before wal_before
      cpu_before=$(hosts_server_cpu_ms)
      wal_before=$(hosts_psql -c "SELECT pg_current_wal_lsn()" run)
      start=$(now_ns)
      for host in $(seq "$hosts"); do
        sweep "$uri_base/run" LIVEACTIVITY_HOST_NAME="bench-$host" LIVEACTIVITY_SWEEP_DIR="$work/host-$host" \
          "$bin/liveactivity-sweep" >"$work/host-$host.out" 2>&1 &
        eval "sweep_$host=\$!"
      done
      errors=0
      for host in $(seq "$hosts"); do
        eval "wait \$sweep_$host" || errors=$((errors + 1))
      done
      elapsed=$(($(now_ns) - start))
      total=0
      for host in $(seq "$hosts"); do
        sent=$(field sent <"$work/host-$host.out" | head -1)
        total=$((total + ${sent:-0}))
      done
      # Every row pushed and written once: anything short of that is an error of the figure.
      local unpushed; unpushed=$(hosts_psql -c "SELECT count(*) FROM push_targets WHERE push_count <> 1" run)
      [ "$unpushed" = 0 ] || errors=$((errors + 1))
      [ "$total" -ge "$hosts_rows" ] || errors=$((errors + 1))
      record "hosts.$hosts.rate" "$(awk -v n="$hosts_rows" -v ns="$elapsed" 'BEGIN { print n / (ns / 1e9) }')"
      record "hosts.$hosts.duplicates" "$((total - hosts_rows))"
      record "hosts.$hosts.errors" "$errors"
      record "hosts.$hosts.claims" "$(hosts_statements run '%FOR UPDATE SKIP LOCKED%')"
      record "hosts.$hosts.writes" "$(hosts_statements run 'UPDATE push_targets r SET last_push_at%')"
      # The server's cost of the whole run, per push (the sessions have ended: their CPU is the
      # postmaster's reaped children's now).
      record "hosts.$hosts.server_cpu_ms_per_1000" \
        "$(awk -v a="$cpu_before" -v b="$(hosts_server_cpu_ms)" -v n="$hosts_rows" 'BEGIN { print (b - a) * 1000 / n }')"
      record "hosts.$hosts.wal_bytes_per_push" \
        "$(hosts_psql -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$wal_before') / $hosts_rows" run)"
      local kind
      for kind in claim outcome expiry figures other; do
        record "hosts.$hosts.$kind.ms_per_1000" "$(hosts_kind run "$kind" "sum(total_exec_time) * 1000 / $hosts_rows")"
        record "hosts.$hosts.$kind.statements_per_push" "$(hosts_kind run "$kind" "sum(calls)::float8 / $hosts_rows")"
      done
      [ "$errors" = 0 ] || log "  $hosts host(s): $errors errors: $(cat "$work"/host-*.out | tail -c 400)"
    done
    log "  round $round: one host $(latest hosts.1.rate) pushes/s, two hosts $(latest hosts.2.rate)" \
      "(duplicates $(latest hosts.2.duplicates), errors $(latest hosts.2.errors))"
  done
  if [ "$churn_minutes" -gt 0 ]; then hosts_churn; fi
  hosts_pause
  stop "$hosts_pid"
  rm -rf "$hosts_pg"
}

# hosts_fill DATABASE ROWS: ROWS registrations (their wake targets) due now, the counters recounted.
hosts_fill() {
  local now; now=$(($(date +%s) * 1000))
  hosts_psql -c "INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment,
      registered_at, expires_at, next_push_at)
    SELECT md5(i::text) || md5((i + 7)::text), 'wake', md5(i::text) || md5((i + 7)::text),
           CASE WHEN i % 10 = 0 THEN 'debug' ELSE 'charging' END, 'production',
           $now - (i * 7919 % 25200000), $now - (i * 7919 % 25200000) + 28800000, $now - (i % 60000)
    FROM generate_series(1, $2) AS i" "$1"
  hosts_psql -c "$recount_sql" "$1"
  # Statistics, as autovacuum gathers them within a minute of a real table's growth: without
  # them the planner reads the whole table for each batch's keys (part 7's slow first rounds).
  # Each round's database is a copy of this one, statistics included.
  hosts_psql -c "VACUUM ANALYZE push_targets" "$1"
}

# hosts_statements DATABASE PATTERN: calls of the statements whose text is like PATTERN.
hosts_statements() {
  hosts_psql -c "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = '$1' AND query LIKE '$2'" "$1"
}

# hosts_server_cpu_ms: the CPU time (user + system, ms) the cluster has used so far: the
# postmaster's own and that of its children it has reaped (ended backends), plus each live
# child's. Read from /proc (clock ticks).
hosts_server_cpu_ms() {
  local postmaster ticks child
  postmaster=$(head -1 "$hosts_pg/data/postmaster.pid")
  ticks=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$postmaster/stat")
  for child in $(pgrep -P "$postmaster"); do
    ticks=$((ticks + $(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || echo 0)))
  done
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { print t * 1000 / hz }'
}

# hosts_kind DATABASE KIND EXPRESSION: EXPRESSION (an aggregate of pg_stat_statements) over the
# statements of one kind: the claim, the outcome writes (and the acks they read), expiry, the
# figures (runs, reasons, faults, hourly deliveries, counters), and everything else. The texts are
# those of PostgresStoreConnection+Outcomes.swift and +Sweep.swift.
hosts_kind() {
  hosts_psql -c "SELECT coalesce($3, 0) FROM (SELECT s.*, CASE
      WHEN query ~ 'SKIP LOCKED' THEN 'claim'
      WHEN query ~ '^\s*(UPDATE push_targets r |WITH owned AS|SELECT registration_token, waiting_ack_at|UPDATE push_targets SET attempts)' THEN 'outcome'
      WHEN query ~ 'FROM push_targets WHERE registered_at <=' THEN 'expiry'
      WHEN query ~ '(delivery_hours|sweep_runs|sweep_run_kinds|sweep_faults|sweep_reasons|target_groups|delivered_scopes|ack_)' THEN 'figures'
      ELSE 'other' END AS kind
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$1') k WHERE kind = '$2'" "$1"
}

# Churn: one host's sweep a minute over 100,000 registrations, a fifth of them due each minute,
# while a tenth is replaced each minute; what the table and the claim look like at the end.
hosts_churn() {
  local rows=100000 minute start next claim_first claim_last errors=0 summary
  log "  churn: $churn_minutes minutes, $rows registrations, a fifth pushed and a tenth replaced each minute"
  hosts_psql -c "DROP DATABASE IF EXISTS churn" -c "CREATE DATABASE churn"
  sweep "$uri_base/churn" LIVEACTIVITY_SWEEP_DIR="$work/migrate" "$bin/liveactivity-sweep" >/dev/null
  hosts_psql -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" churn
  local now; now=$(($(date +%s) * 1000))
  # Due spread over five minutes, registered over the last 7 hours (none expires in the run).
  hosts_psql -c "INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment,
      registered_at, expires_at, next_push_at)
    SELECT md5(i::text) || md5((i + 7)::text), 'wake', md5(i::text) || md5((i + 7)::text), 'charging', 'production',
           $now - (i * 7919 % 3600000), $now + 28800000, $now + (i % 5) * 60000 FROM generate_series(1, $rows) AS i" churn
  hosts_psql -c "$recount_sql" churn
  hosts_psql -c "VACUUM ANALYZE push_targets" churn
  start=$(now_ns)
  for minute in $(seq "$churn_minutes"); do
    next=$((start + minute * 60 * 1000000000))
    hosts_psql -c "SELECT pg_stat_statements_reset()" churn >/dev/null
    # A tenth replaced: the oldest-registered gone (unregistered), as many new ones due in 5 min.
    now=$(($(date +%s) * 1000))
    # (A new token is made once per row, in the subquery, and is both keys of its wake target.)
    hosts_psql -c "WITH gone AS (DELETE FROM push_targets WHERE registration_token IN (SELECT registration_token
        FROM push_targets ORDER BY registered_at LIMIT $((rows / 10))) RETURNING 1)
      INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at,
        expires_at, next_push_at)
      SELECT token, 'wake', token, 'charging', 'production', $now, $now + 28800000, $now + 300000
      FROM (SELECT md5(random()::text) || md5(random()::text) AS token
            FROM generate_series(1, (SELECT count(*) FROM gone))) AS r" churn >/dev/null
    # The counters follow (one grouped read of the table, before the sweep; not a figure here).
    hosts_psql -c "$recount_sql" churn >/dev/null
    summary=$(sweep "$uri_base/churn" LIVEACTIVITY_HOST_NAME=churn LIVEACTIVITY_SWEEP_DIR="$work/churn" \
      "$bin/liveactivity-sweep" 2>&1) || errors=$((errors + 1))
    [ "$(field failed <<<"$summary" | head -1)" = 0 ] || errors=$((errors + 1))
    local claim; claim=$(hosts_kind churn claim "sum(total_exec_time) / nullif(sum(calls), 0)")
    [ "$minute" = 1 ] && claim_first=$claim
    claim_last=$claim
    while [ "$(now_ns)" -lt "$next" ]; do sleep 0.5; done
  done
  record hosts.churn.errors "$errors"
  record hosts.churn.claim_first_ms "${claim_first:-0}"
  record hosts.churn.claim_last_ms "${claim_last:-0}"
  record hosts.churn.live "$(hosts_psql -c "SELECT n_live_tup FROM pg_stat_user_tables WHERE relname = 'push_targets'" churn)"
  record hosts.churn.dead "$(hosts_psql -c "SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'push_targets'" churn)"
  record hosts.churn.autovacuums "$(hosts_psql -c "SELECT autovacuum_count FROM pg_stat_user_tables WHERE relname = 'push_targets'" churn)"
  record hosts.churn.table_mb "$(hosts_psql -c "SELECT pg_total_relation_size('push_targets') / 1048576.0" churn)"
  # The same rows packed: what the table would weigh without its dead space.
  hosts_psql -c "CREATE TABLE packed AS SELECT * FROM push_targets" churn
  record hosts.churn.packed_mb "$(hosts_psql -c "SELECT pg_total_relation_size('packed') / 1048576.0" churn)"
  log "  churn: table $(latest hosts.churn.table_mb) MB (packed $(latest hosts.churn.packed_mb) MB)," \
    "claim $(latest hosts.churn.claim_first_ms) ms then $(latest hosts.churn.claim_last_ms) ms, errors $errors"
}

# A host dies a second into its sweep; another host's cron runs every minute from then on.
hosts_pause() {
  local rows=10000 killed left deadline next run=0 claimed_error=0
  hosts_psql -c "DROP DATABASE IF EXISTS pause" -c "CREATE DATABASE pause"
  sweep "$uri_base/pause" LIVEACTIVITY_SWEEP_DIR="$work/migrate" "$bin/liveactivity-sweep" >/dev/null
  hosts_fill pause "$rows"
  # The host that dies: one push in flight at a time keeps it mid-sweep. Started by env, which
  # becomes the sweep (a function in the background would be a subshell, and SIGKILL would end
  # that subshell, not the sweep).
  env "${sweep_env[@]}" LIVEACTIVITY_DB="$uri_base/pause" LIVEACTIVITY_HOST_NAME=dying LIVEACTIVITY_SWEEP_DIR="$work/dying" \
    LIVEACTIVITY_LEASE_SECONDS="$hosts_lease" LIVEACTIVITY_SWEEP_BUDGET=$((hosts_lease > 56 ? 50 : hosts_lease - 6)) \
    LIVEACTIVITY_APNS_CONCURRENCY=1 "$bin/liveactivity-sweep" >"$work/dying.out" 2>&1 &
  local dying=$! waited=0
  # Killed once it holds claimed rows it has not written (10 s at most).
  until [ "$(hosts_psql -c "SELECT count(*) FROM push_targets WHERE lease_host = 'dying' AND push_count = 0" pause)" -gt 0 ] ||
    [ "$waited" -ge 100 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -KILL "$dying" 2>/dev/null || true
  local status=0
  wait "$dying" 2>/dev/null || status=$?
  # Killed, not ended on its own: anything else makes the figure an error.
  [ "$status" = 137 ] || { log "  the host to kill ended with status $status first: $(tail -c 300 "$work/dying.out")"; claimed_error=1; }
  killed=$(now_ns)
  local claimed; claimed=$(hosts_psql -c "SELECT count(*) FROM push_targets WHERE lease_host = 'dying' AND push_count = 0" pause)
  deadline=$((killed + (hosts_lease + 240) * 1000000000))
  left=$claimed
  while [ "$left" -gt 0 ] && [ "$(now_ns)" -lt "$deadline" ]; do
    next=$((killed + run * 60 * 1000000000))
    while [ "$(now_ns)" -lt "$next" ]; do sleep 0.2; done
    sweep "$uri_base/pause" LIVEACTIVITY_HOST_NAME=survivor LIVEACTIVITY_SWEEP_DIR="$work/survivor" \
      "$bin/liveactivity-sweep" >>"$work/survivor.out" 2>&1 || true
    run=$((run + 1))
    left=$(hosts_psql -c "SELECT count(*) FROM push_targets WHERE push_count = 0" pause)
  done
  [ "$claimed" -gt 0 ] || log "  the host to kill claimed nothing: $(tail -c 300 "$work/dying.out")"
  record hosts.pause.claimed "$claimed"
  record hosts.pause.seconds "$(awk -v ns="$(($(now_ns) - killed))" 'BEGIN { print ns / 1e9 }')"
  record hosts.pause.errors "$([ "$left" = 0 ] && [ "$claimed" -gt 0 ] && [ "$claimed_error" = 0 ] && echo 0 || echo 1)"
  log "  a host killed holding $claimed claimed rows: wakes resumed after $(latest hosts.pause.seconds) s (lease $hosts_lease s)"
}

hosts_table() {
  echo
  echo "8. Several hosts ($hosts_rows due rows on one PostgreSQL, the part 2 endpoint; reference: one host in the same round)"
  printf '  %-22s %12s %10s %12s %12s %10s %8s\n' "" "pushes/s" "/1 host" "claims/push" "writes/push" "dupl." "errors"
  local h r1 r; r1=$(value hosts.1.rate)
  for h in 1 2; do
    r=$(value "hosts.$h.rate")
    printf '  %-22s %12s %10s %12s %12s %10s %8s\n' "$h host(s) at once" \
      "$([ "$(hosts_total "hosts.$h.errors")" = 0 ] && fmt "$r" || echo FAILED)" "$(ratio "$r" "$r1")" \
      "$(awk -v c="$(value "hosts.$h.claims")" -v n="$hosts_rows" 'BEGIN { printf "%.4f", c / n }')" \
      "$(awk -v c="$(value "hosts.$h.writes")" -v n="$hosts_rows" 'BEGIN { printf "%.4f", c / n }')" \
      "$(hosts_total "hosts.$h.duplicates")" "$(hosts_total "hosts.$h.errors")"
  done
  echo "  the database server's cost per push (its processes' CPU; its statements' time, count and WAL):"
  printf '  %-22s %14s %12s %14s\n' "" "CPU ms/1000" "WAL B/push" "stmts/push"
  for h in 1 2; do
    printf '  %-22s %14s %12s %14s\n' "$h host(s) at once" "$(fmt "$(value "hosts.$h.server_cpu_ms_per_1000")")" \
      "$(fmt "$(value "hosts.$h.wal_bytes_per_push")")" \
      "$(awk -v a="$(value "hosts.$h.claim.statements_per_push")" -v b="$(value "hosts.$h.outcome.statements_per_push")" \
        -v c="$(value "hosts.$h.expiry.statements_per_push")" -v d="$(value "hosts.$h.figures.statements_per_push")" \
        -v e="$(value "hosts.$h.other.statements_per_push")" 'BEGIN { printf "%.4f", a + b + c + d + e }')"
  done
  printf '  %-22s' "statement ms/1000:"
  local kind
  for kind in claim outcome expiry figures other; do printf ' %s %s' "$kind" "$(fmt "$(value "hosts.1.$kind.ms_per_1000")")"; done
  echo " (one host)"
  if [ "$churn_minutes" -gt 0 ]; then
    echo "  churn, $churn_minutes minutes (100,000 rows, a fifth pushed and a tenth replaced a minute):" \
      "table $(fmt "$(value hosts.churn.table_mb)") MB against $(fmt "$(value hosts.churn.packed_mb)") MB packed," \
      "$(value hosts.churn.dead) dead rows, $(value hosts.churn.autovacuums) autovacuums;" \
      "claim $(fmt "$(value hosts.churn.claim_first_ms)") ms in minute 1, $(fmt "$(value hosts.churn.claim_last_ms)") ms in the last;" \
      "errors $(hosts_total hosts.churn.errors)"
  fi
  echo "  a host killed mid-sweep (it had claimed $(value hosts.pause.claimed) rows): wakes of those rows resumed" \
    "after $([ "$(hosts_total hosts.pause.errors)" = 0 ] && fmt "$(value hosts.pause.seconds)" || echo FAILED) s;" \
    "by design the lease ($hosts_lease s) plus up to a minute"
  echo "  target: duplicates 0: $(verdict "$(hosts_total hosts.2.duplicates) == 0 && $(hosts_total hosts.1.duplicates) == 0");" \
    "pause within lease + 60 s: $(verdict "$(hosts_total hosts.pause.errors) == 0 && $(value hosts.pause.seconds) <= $hosts_lease + 60 + 5")"
}

# hosts_total KEY: the sum over the rounds (errors, duplicates).
hosts_total() { awk -v k="$1" '$1 == k { s += $2 } END { print s + 0 }' "$results"; }
