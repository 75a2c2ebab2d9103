# Part 6 of scripts/bench (issue 17), sourced by it: GET /wakeup/status through the shipped nginx
# locations into the responder, with 100,000 registrations and 7 days of per-minute sweep runs
# (10,080) stored - the page's figures gathered and rendered per request. Time (curl's total,
# nginx included) and size; targets < 50 ms and < 200 kB. Every answer other than 200 is counted,
# and a figure with any prints FAILED. Part 10 (widgets.sh) measures the page the same way, with
# status_fill's widgets targets and widgets counts, against this part's store.

# status_fill DB [widgets]: 100,000 registrations (none due) and a week of runs as the sweep
# records them: a failure in every tenth, a removal in every seventh, a fault a day; the
# registrations pushed up to 60 times, one in 100 backing off. With `widgets`, every registration
# also has a widgets target (pushed up to 16 times, one in 100 backing off) and every run its
# widgets counts (a 30-minute interval: a thirtieth of them sent a minute), reasons and a widgets
# topic fault a day. The lifetime totals are then those of the runs stored, and the counters
# (their wake-ups with them, schema 15) those of the targets.
status_fill() {
  local db=$1 widgets=${2:-} now first widget_runs=""
  fill "$db" 100000 0 "$widgets"
  now=$(($(date +%s) * 1000))
  # The runs are numbered after those already stored (the empty database's own run).
  first=$(sqlite3 "$db" "SELECT coalesce(max(id), 0) FROM sweep_runs")
  if [ "$widgets" = widgets ]; then
    widget_runs="
INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held)
  SELECT started_at, id, 'widgets', 100000, 3333 + (id - $first) % 100, 96667 - (id - $first) % 100, (id - $first) % 10 = 5,
         (id - $first) % 7 = 3, 0 FROM sweep_runs WHERE id > $first;
INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count)
  SELECT run_id, 'failed', 'widgets', 'CURLE_OPERATION_TIMEDOUT', failed FROM sweep_run_kinds
  WHERE push_kind = 'widgets' AND failed > 0 AND run_id > $first;
INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count)
  SELECT run_id, 'removed', 'widgets', 'Unregistered', removed FROM sweep_run_kinds
  WHERE push_kind = 'widgets' AND removed > 0 AND run_id > $first;
INSERT INTO sweep_faults (run_id, environment, push_kind, kind, reason, pushes)
  SELECT id, 'production', 'widgets', 'configuration', 'BadTopic', 40 FROM sweep_runs
  WHERE id > $first AND (id - $first) % 1440 = 720;
UPDATE push_targets SET push_count = abs(random()) % 16, consecutive_failures = (abs(random()) % 100 = 0)
  WHERE push_kind = 'widgets';"
  fi
  sqlite3 "$db" <<SQL
PRAGMA synchronous=OFF;
BEGIN;
WITH RECURSIVE m(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM m WHERE i < 10080)
INSERT INTO sweep_runs (started_at, duration_ms, expired, outcome)
SELECT $now - i * 60000, 300 + i % 200, i % 3, 'ok' FROM m;
INSERT INTO sweep_run_kinds (started_at, run_id, push_kind, active, sent, skipped, failed, removed, held)
  SELECT started_at, id, 'wake', 100000, 20000 + (id - $first) % 500, 80000, (id - $first) % 10 = 0, (id - $first) % 7 = 0, 0
  FROM sweep_runs WHERE id > $first;
INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count)
  SELECT run_id, 'failed', 'wake', 'CURLE_OPERATION_TIMEDOUT', failed FROM sweep_run_kinds
  WHERE push_kind = 'wake' AND failed > 0 AND run_id > $first;
INSERT INTO sweep_reasons (run_id, kind, push_kind, reason, count)
  SELECT run_id, 'removed', 'wake', 'Unregistered', removed FROM sweep_run_kinds
  WHERE push_kind = 'wake' AND removed > 0 AND run_id > $first;
INSERT INTO sweep_faults (run_id, environment, push_kind, kind, reason, pushes)
  SELECT id, 'sandbox', '', 'configuration', 'BadEnvironmentKeyInToken', 40 FROM sweep_runs
  WHERE id > $first AND (id - $first) % 1440 = 0;
UPDATE push_targets SET push_count = abs(random()) % 60, consecutive_failures = (abs(random()) % 100 = 0)
  WHERE push_kind = 'wake';
$widget_runs
$status_totals_sql
$recount_sql
COMMIT;
SQL
}

# The run history's lifetime totals made anew from the runs stored, as a sweep adds to them when
# it records a run (whether a trigger or the recording code does).
status_totals_sql="UPDATE sweep_totals SET runs = (SELECT count(*) FROM sweep_runs),
  expired = (SELECT coalesce(sum(expired), 0) FROM sweep_runs) WHERE id = 1;
DELETE FROM sweep_kind_totals;
INSERT INTO sweep_kind_totals (push_kind, sent, failed, removed)
  SELECT push_kind, sum(sent), sum(failed), sum(removed) FROM sweep_run_kinds GROUP BY push_kind;
DELETE FROM sweep_reason_totals;
INSERT INTO sweep_reason_totals (kind, push_kind, reason, count)
  SELECT kind, push_kind, reason, sum(count) FROM sweep_reasons GROUP BY 1, 2, 3;
DELETE FROM sweep_fault_totals;
INSERT INTO sweep_fault_totals (environment, push_kind, kind, reason, runs, pushes, last_at)
  SELECT f.environment, f.push_kind, f.kind, f.reason, count(*), sum(f.pushes), max(r.started_at)
  FROM sweep_faults f JOIN sweep_runs r ON r.id = f.run_id GROUP BY 1, 2, 3, 4;"

# status_round KEY URL: 20 requests; records KEY.ms (median), KEY.max_ms, KEY.bytes (median) and
# KEY.errors (answers other than 200).
status_round() {
  local key=$1 url=$2 errors
  for _ in $(seq 20); do
    curl -s -o /dev/null -w '%{http_code} %{time_total} %{size_download}\n' "$url" || true
  done >"$work/status-times.txt"
  errors=$(grep -cv '^200 ' "$work/status-times.txt" || true)
  [ "$errors" = 0 ] || log "  $key: $errors answers not 200, the first: $(grep -v '^200 ' "$work/status-times.txt" | head -1)"
  record "$key.errors" "$errors"
  record "$key.ms" "$(awk '{ print $2 * 1000 }' "$work/status-times.txt" | median)"
  record "$key.max_ms" "$(awk '{ if ($2 > m) m = $2 } END { print m * 1000 }' "$work/status-times.txt")"
  record "$key.bytes" "$(awk '{ print $3 }' "$work/status-times.txt" | median)"
}

# status_figure KEY: the median of the rounds, or FAILED with the count of answers not 200.
status_figure() {
  local errors; errors=$(awk -v k="$1.errors" '$1 == k { s += $2 } END { print s + 0 }' "$results")
  if [ "$errors" != 0 ]; then echo "FAILED:$errors"; else fmt "$(value "$1.ms")"; fi
}

status_run() {
  log "6 status page: 100000 registrations, 10080 sweep runs (7 days, one a minute); $rounds rounds of 20 requests"
  status_fill "$work/status.sqlite"
  local round url
  start_stack "$work/status.sqlite"
  url="http://127.0.0.1:$stack_port/wakeup/status"
  curl -sf -o /dev/null "$url" # warm: the first request opens the database
  for round in $(seq "$rounds"); do status_round status "$url"; done
  stop_stack
}

status_table() {
  local errors; errors=$(awk '$1 == "status.errors" { s += $2 } END { print s + 0 }' "$results")
  echo
  echo "6. Status page (GET /wakeup/status through nginx; 100,000 registrations, 10,080 sweep runs stored)"
  printf '  %-44s %12s %12s %12s %8s\n' "" "median ms" "slowest ms" "bytes" "errors"
  printf '  %-44s %12s %12s %12s %8s\n' "page (median of 20 per round)" "$(status_figure status)" \
    "$(fmt "$(value status.max_ms)")" "$(value status.bytes)" "$errors"
  echo "  target (issue 17): < 50 ms: $(verdict "$errors == 0 && $(value status.ms) < 50"); < 200 kB: $(verdict "$(value status.bytes) < 200000")"
}
