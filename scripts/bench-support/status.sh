# Part 6 of scripts/bench (issue 17), sourced by it: GET /wakeup/status through the shipped nginx
# locations into the responder, with 100,000 registrations and 7 days of per-minute sweep runs
# (10,080) stored - the page's figures gathered and rendered per request. Time (curl's total,
# nginx included) and size; targets < 50 ms and < 200 kB.

status_run() {
  log "6 status page: 100000 registrations, 10080 sweep runs (7 days, one a minute); $rounds rounds of 20 requests"
  fill "$work/status.sqlite" 100000 0
  local now round url; now=$(($(date +%s) * 1000))
  # A week of runs as the sweep records them: a failure in every tenth, a removal in every
  # seventh, a fault a day; the registrations pushed up to 60 times, one in 100 backing off.
  sqlite3 "$work/status.sqlite" <<SQL
PRAGMA synchronous=OFF;
BEGIN;
WITH RECURSIVE m(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM m WHERE i < 10080)
INSERT INTO sweep_runs (started_at, duration_ms, active, sent, skipped, expired, removed, failed, outcome)
SELECT $now - i * 60000, 300 + i % 200, 100000, 20000 + i % 500, 80000, i % 3, i % 7 = 0, i % 10 = 0, 'ok' FROM m;
INSERT INTO sweep_reasons (run_id, kind, reason, count)
  SELECT id, 'failed', 'CURLE_OPERATION_TIMEDOUT', failed FROM sweep_runs WHERE failed > 0;
INSERT INTO sweep_reasons (run_id, kind, reason, count)
  SELECT id, 'removed', 'Unregistered', removed FROM sweep_runs WHERE removed > 0;
INSERT INTO sweep_faults (run_id, environment, kind, reason, pushes)
  SELECT id, 'sandbox', 'configuration', 'BadEnvironmentKeyInToken', 40 FROM sweep_runs WHERE id % 1440 = 0;
UPDATE registrations SET wakeup_count = abs(random()) % 60, consecutive_failures = (abs(random()) % 100 = 0);
COMMIT;
SQL
  start_stack "$work/status.sqlite"
  url="http://127.0.0.1:$stack_port/wakeup/status"
  curl -sf -o /dev/null "$url" # warm: the first request opens the database
  for round in $(seq "$rounds"); do
    for _ in $(seq 20); do
      curl -s -o /dev/null -w '%{http_code} %{time_total} %{size_download}\n' "$url"
    done >"$work/status-times.txt"
    if grep -qv '^200 ' "$work/status-times.txt"; then
      log "status page: not 200: $(grep -v '^200 ' "$work/status-times.txt" | head -1)"
      exit 1
    fi
    record status.ms "$(awk '{ print $2 * 1000 }' "$work/status-times.txt" | median)"
    record status.max_ms "$(awk '{ if ($2 > m) m = $2 } END { print m * 1000 }' "$work/status-times.txt")"
    record status.bytes "$(awk '{ print $3 }' "$work/status-times.txt" | median)"
  done
  stop_stack
}

status_table() {
  echo
  echo "6. Status page (GET /wakeup/status through nginx; 100,000 registrations, 10,080 sweep runs stored)"
  printf '  %-44s %12s %12s %12s\n' "" "median ms" "slowest ms" "bytes"
  printf '  %-44s %12s %12s %12s\n' "page (median of 20 per round)" "$(fmt "$(value status.ms)")" \
    "$(fmt "$(value status.max_ms)")" "$(value status.bytes)"
  echo "  target (issue 17): < 50 ms: $(verdict "$(value status.ms) < 50"); < 200 kB: $(verdict "$(value status.bytes) < 200000")"
}
