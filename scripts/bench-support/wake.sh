# Part 5 of scripts/bench, sourced by it (uses its helpers, $work, start_stack, run_wrk and the
# fill function): issue 16's figures.
#   - POST /wakeup/ack through nginx against POST /wakeup in the same run, same stack and
#     connections: registrations first (new tokens), then acks of the same tokens (same wrk seed),
#     each registered token given a push answered 200 before, so the acks are matched (a token
#     acked again, when wrk sends more acks than there were registrations, is a duplicate or
#     unmatched: the same work, one transaction in the group commit each);
#   - `liveactivity-sweep history PREFIX` with BENCH_WAKE_ROWS registrations (100000), the
#     device holding 20 attempts (AttemptRing's bytes, made by wake_ring): the whole command, process start included (< 50 ms);
#   - `liveactivity-sweep stats` with the same registrations and 7 days of hourly delivery
#     figures (every hour, type and environment) and acks (< 1 s).

wake_rows=${BENCH_WAKE_ROWS:-100000}

# wake_ring NOW COUNT: the hex of COUNT attempts as the sweep stores them on the row
# (AttemptRing), newest first, five minutes apart: 200s with an apns-id and acked after 1.46 s,
# every fifth a 503 ServiceUnavailable.
wake_ring() {
  python3 - "$1" "$2" <<'PY'
import struct, sys, uuid
now, count = int(sys.argv[1]), int(sys.argv[2])
out = b""
for i in range(count):
    at = now - i * 300000
    failed = i % 5 == 4
    out += struct.pack("<qIHI", at, 40, 503 if failed else 200, 0xFFFFFFFF if failed else 1460)
    out += b"\x01" + uuid.uuid4().bytes
    reason = b"ServiceUnavailable" if failed else b""
    out += bytes([len(reason)]) + reason
print(out.hex().upper())
PY
}

wake_run() {
  log "5/5 wake: ack vs register ($rounds rounds of ${duration}s), history and stats with $wake_rows registrations"
  start_stack "$work/wake.sqlite"
  run_wrk warmup /wakeup 2 "$connections" 997 >/dev/null
  for round in $(seq "$rounds"); do
    run_wrk wake.register /wakeup "$duration" "$connections" "$((round + 700))"
    # A push answered 200 a minute ago for every registration, as a sweep would have written it.
    sqlite3 -cmd ".timeout 5000" "$work/wake.sqlite" \
      "UPDATE push_targets SET attempts = X'$(wake_ring "$(($(date +%s) * 1000 - 60000))" 1)'
       WHERE attempts IS NULL AND push_kind = 'wake'"
    run_wrk wake.ack /wakeup/ack "$duration" "$connections" "$((round + 700))"
    log "  round $round: register $(latest wake.register.rps) req/s (errors $(latest wake.register.errors)), ack $(latest wake.ack.rps) req/s (errors $(latest wake.ack.errors))"
  done
  stop_stack

  fill "$work/wake-scale.sqlite" "$wake_rows" 0
  local token now hour
  token=$(sqlite3 "$work/wake-scale.sqlite" "SELECT registration_token FROM push_targets WHERE push_kind = 'wake'
    ORDER BY registration_token LIMIT 1 OFFSET $((wake_rows / 2))")
  now=$(($(date +%s) * 1000)); hour=$((now / 3600000))
  sqlite3 "$work/wake-scale.sqlite" <<SQL
BEGIN;
UPDATE push_targets SET attempts = X'$(wake_ring "$now" 20)' WHERE registration_token = '$token' AND push_kind = 'wake';
WITH RECURSIVE h(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM h WHERE i < 167)
INSERT INTO delivery_hours (hour, activity_type, environment, push_kind, registrations, delivered, acked, delay_sum_ms,
  d0, d1, d2, d3, d4)
SELECT $hour - i, t.name, e.name, 'wake', 9000, 108000, 90000, 150000000, 20000, 30000, 25000, 10000, 5000
FROM h, (SELECT 'charging' AS name UNION ALL SELECT 'debug') t, (SELECT 'production' AS name UNION ALL SELECT 'sandbox') e;
WITH RECURSIVE h(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM h WHERE i < 167)
INSERT INTO ack_hours (hour, outcome, count)
SELECT $hour - i, o.name, 1000 FROM h, (SELECT 'matched' AS name UNION ALL SELECT 'duplicate' UNION ALL SELECT 'unmatched') o;
COMMIT;
SQL
  for round in $(seq "$rounds"); do
    start=$(now_ns)
    sweep "$work/wake-scale.sqlite" "$bin/liveactivity-sweep" history "${token:0:8}" >/dev/null
    record wake.history.ms "$(awk -v ns="$(($(now_ns) - start))" 'BEGIN { print ns / 1e6 }')"
    start=$(now_ns)
    sweep "$work/wake-scale.sqlite" "$bin/liveactivity-sweep" stats >/dev/null
    record wake.stats.ms "$(awk -v ns="$(($(now_ns) - start))" 'BEGIN { print ns / 1e6 }')"
  done
}

wake_table() {
  local rr ar
  rr=$(value wake.register.rps); ar=$(value wake.ack.rps)
  echo
  echo "5. Wake acks (issue 16; wrk, $connections connections, ${duration}s; history and stats with $wake_rows registrations)"
  printf '  %-44s %12s %10s %10s\n' "" "req/s or ms" "p99 ms" "errors"
  printf '  %-44s %12s %10s %10s\n' "POST /wakeup (register)" "$(fmt "$rr")" "$(fmt "$(value wake.register.p99)")" \
    "$(awk '$1 == "wake.register.errors" { s += $2 } END { print s + 0 }' "$results")"
  printf '  %-44s %12s %10s %10s\n' "POST /wakeup/ack" "$(fmt "$ar")" "$(fmt "$(value wake.ack.p99)")" \
    "$(awk '$1 == "wake.ack.errors" { s += $2 } END { print s + 0 }' "$results")"
  printf '  %-44s %12s\n' "history PREFIX (whole command, ms)" "$(fmt "$(value wake.history.ms)")"
  printf '  %-44s %12s\n' "stats with 7 days of hourly figures (ms)" "$(fmt "$(value wake.stats.ms)")"
  echo "  target: ack >= 1.0x register: $(verdict "$ar >= $rr") ($(ratio "$ar" "$rr")); history < 50 ms: $(verdict "$(value wake.history.ms) < 50");" \
    "stats < 1 s: $(verdict "$(value wake.stats.ms) < 1000")"
}
