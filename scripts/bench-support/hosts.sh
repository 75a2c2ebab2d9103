# Part 8 of scripts/bench (issue 24, docs/SEVERAL-HOSTS.md), sourced by it: one throwaway
# PostgreSQL (scripts/postgres-cluster) and the endpoint of part 2.
#   - A sweep of BENCH_HOSTS_ROWS (100,000) due rows by one host, then by two hosts started at
#     once (each with its own name and folder): pushes/s of the whole, the reference being the one
#     host's run in the same round; duplicates (pushes answered 200 beyond one per row, from the
#     hosts' summary lines, with every row's wakeup count checked to be 1); and the claim and
#     outcome-write statements per push, counted by pg_stat_statements.
#   - How long wakes pause when a host dies: a host SIGKILLed as soon as it holds claimed rows of
#     its sweep of 10,000 (one push in flight at a time), another host's cron every minute from then on; the pause is the time from the kill
#     until the last row the dead host had claimed is pushed (by design the lease, 120 s, plus up
#     to a minute). Once per run: it takes minutes.
# A figure with any error (a row not pushed, a sweep exiting non-zero) is printed as failed.

hosts_rows=${BENCH_HOSTS_ROWS:-100000}
hosts_lease=${BENCH_HOSTS_LEASE:-120}

hosts_psql() { "$hosts_bindir/psql" -X -q -At -h "$hosts_pg/socket" -U postgres "$@"; }

hosts_run() {
  log "8 several hosts: $hosts_rows due rows swept by one host, then by two at once, $rounds rounds; then a host killed"
  hosts_bindir=$("$root/scripts/postgres-cluster" bindir)
  # The server's user (nobody, under root) must reach its folder: one of its own under /tmp.
  hosts_pg=$(mktemp -d "${TMPDIR:-/tmp}/liveactivity-bench-postgres-XXXXXX")
  "$root/scripts/postgres-cluster" init "$hosts_pg" >/dev/null
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
      local unpushed; unpushed=$(hosts_psql -c "SELECT count(*) FROM registrations WHERE wakeup_count <> 1" run)
      [ "$unpushed" = 0 ] || errors=$((errors + 1))
      [ "$total" -ge "$hosts_rows" ] || errors=$((errors + 1))
      record "hosts.$hosts.rate" "$(awk -v n="$hosts_rows" -v ns="$elapsed" 'BEGIN { print n / (ns / 1e9) }')"
      record "hosts.$hosts.duplicates" "$((total - hosts_rows))"
      record "hosts.$hosts.errors" "$errors"
      record "hosts.$hosts.claims" "$(hosts_statements run '%FOR UPDATE SKIP LOCKED%')"
      record "hosts.$hosts.writes" "$(hosts_statements run 'UPDATE registrations r SET last_push_at%')"
      [ "$errors" = 0 ] || log "  $hosts host(s): $errors errors: $(cat "$work"/host-*.out | tail -c 400)"
    done
    log "  round $round: one host $(latest hosts.1.rate) pushes/s, two hosts $(latest hosts.2.rate)" \
      "(duplicates $(latest hosts.2.duplicates), errors $(latest hosts.2.errors))"
  done
  hosts_pause
  stop "$hosts_pid"
  rm -rf "$hosts_pg"
}

# hosts_fill DATABASE ROWS: ROWS registrations due now.
hosts_fill() {
  local now; now=$(($(date +%s) * 1000))
  hosts_psql -c "INSERT INTO registrations (push_token, activity_type, environment, registered_at, expires_at, next_push_at)
    SELECT md5(i::text) || md5((i + 7)::text), CASE WHEN i % 10 = 0 THEN 'debug' ELSE 'charging' END, 'production',
           $now - (i * 7919 % 25200000), $now - (i * 7919 % 25200000) + 28800000, $now - (i % 60000)
    FROM generate_series(1, $2) AS i" "$1"
}

# hosts_statements DATABASE PATTERN: calls of the statements whose text is like PATTERN.
hosts_statements() {
  hosts_psql -c "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = '$1' AND query LIKE '$2'" "$1"
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
  until [ "$(hosts_psql -c "SELECT count(*) FROM registrations WHERE lease_host = 'dying' AND wakeup_count = 0" pause)" -gt 0 ] ||
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
  local claimed; claimed=$(hosts_psql -c "SELECT count(*) FROM registrations WHERE lease_host = 'dying' AND wakeup_count = 0" pause)
  deadline=$((killed + (hosts_lease + 240) * 1000000000))
  left=$claimed
  while [ "$left" -gt 0 ] && [ "$(now_ns)" -lt "$deadline" ]; do
    next=$((killed + run * 60 * 1000000000))
    while [ "$(now_ns)" -lt "$next" ]; do sleep 0.2; done
    sweep "$uri_base/pause" LIVEACTIVITY_HOST_NAME=survivor LIVEACTIVITY_SWEEP_DIR="$work/survivor" \
      "$bin/liveactivity-sweep" >>"$work/survivor.out" 2>&1 || true
    run=$((run + 1))
    left=$(hosts_psql -c "SELECT count(*) FROM registrations WHERE wakeup_count = 0" pause)
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
  echo "  a host killed mid-sweep (it had claimed $(value hosts.pause.claimed) rows): wakes of those rows resumed" \
    "after $([ "$(hosts_total hosts.pause.errors)" = 0 ] && fmt "$(value hosts.pause.seconds)" || echo FAILED) s;" \
    "by design the lease ($hosts_lease s) plus up to a minute"
  echo "  target: duplicates 0: $(verdict "$(hosts_total hosts.2.duplicates) == 0 && $(hosts_total hosts.1.duplicates) == 0");" \
    "pause within lease + 60 s: $(verdict "$(hosts_total hosts.pause.errors) == 0 && $(value hosts.pause.seconds) <= $hosts_lease + 60 + 5")"
}

# hosts_total KEY: the sum over the rounds (errors, duplicates).
hosts_total() { awk -v k="$1" '$1 == k { s += $2 } END { print s + 0 }' "$results"; }
