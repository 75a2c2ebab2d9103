# Part 10 of scripts/bench (issue 31 point 7), sourced by it (uses its helpers, $work, the endpoint
# of part 2, fill, sweep, start_stack, and status.sh's status_fill and status_round): what a
# widgets target costs.
#   - The sweep: BENCH_WIDGETS_N (100,000) due pushes in one liveactivity-sweep run, as N / 2
#     registrations with a wake and a widgets target each, against N wake-only registrations in
#     the same rounds (the order alternating), both to the endpoint of part 2; pushes/s (every
#     push of the run over its wall time, process start included), peak memory, CPU per push.
#     Target: the mixed sweep at >= 0.9 x the wake-only one. A push not answered 200 (the
#     summary's sent= and widgets_sent= short of the targets due) or a sweep exiting non-zero is
#     an error, and a figure with any error prints FAILED.
#   - Before the rounds, a check that the endpoint answers a widgets push and that the sweep sends
#     what SPEC 5.5 says: 100 registrations with both targets swept to a copy of the endpoint that
#     logs each request, every answer 200, each wake push to its wake token with its headers and
#     payload, each widgets push to its widget token with `apns-push-type: widgets`, topic
#     `<bundle>.push-type.widgets`, no apns-priority, no apns-expiration and
#     {"aps":{"content-changed":true}}. Every mismatch is an error of the sweep's figures.
#   - The status page, as part 6 measures it (20 requests a round through the shipped nginx
#     locations), with 100,000 registrations each with a widgets target and 10,080 runs with
#     widgets counts, reasons and faults (status_fill ... widgets), against part 6's store (no
#     widgets) in the same rounds. Targets as part 6's: < 50 ms and < 200 kB.

widgets_n=${BENCH_WIDGETS_N:-100000}

# widgets_check: the check above; records widgets.check.errors.
widgets_check() {
  local dir="$work/widgets-endpoint" port summary status=0
  mkdir -p "$dir/empty"
  port=$(free_port)
  # The endpoint's own template, with a log of what each request carried (JSON-escaped: a
  # missing header is empty, the body's quotes are \").
  sed -e "s#@PREFIX@#$dir#g; s#@PORT@#$port#g; s#@CERT@#$work/tls-cert.pem#g; s#@CERT_KEY@#$work/tls-key.pem#g" \
    -e 's#^\( *\)access_log off;#\1log_format bench_check escape=json '"'"'$status|$uri|$http_apns_push_type|$http_apns_topic|$http_apns_priority|$http_apns_expiration|$request_body'"'"';\n\1access_log '"$dir"'/requests.log bench_check;#' \
    "$support/apns-endpoint.conf.template" >"$dir/nginx.conf"
  grep -q 'access_log .*requests.log' "$dir/nginx.conf" ||
    { log "the endpoint template's access_log line is no longer as widgets.sh expects"; exit 1; }
  nginx -p "$dir/" -c "$dir/nginx.conf" -e "$dir/error.log" &
  local checker=$!
  pids+=("$checker")
  wait_http "https://127.0.0.1:$port/3/device/00" --http2 --cacert "$work/tls-cert.pem" -d "$payload"
  : >"$dir/requests.log"
  fill "$work/widgets-check.sqlite" 100 100 widgets
  summary=$(sweep "$work/widgets-check.sqlite" env APNS_HOST="https://127.0.0.1:$port" "$bin/liveactivity-sweep" \
    2>"$dir/sweep.err") || status=$?
  stop "$checker"
  local errors
  errors=$(python3 - "$work/widgets-check.sqlite" "$dir/requests.log" "$payload" <<'PY'
import sqlite3, sys
database, requests, wake_payload = sys.argv[1:4]
expected = {}
for kind, token in sqlite3.connect(database).execute("SELECT push_kind, push_token FROM push_targets"):
    if kind == "wake":
        expected["/3/device/" + token] = ("wake", ["background", "org.example.bench", "5", "*", wake_payload])
    else:
        expected["/3/device/" + token] = ("widgets", ["widgets", "org.example.bench.push-type.widgets", "", "",
                                                       '{"aps":{"content-changed":true}}'])
errors, seen = 0, set()
for line in open(requests):
    fields = line.rstrip("\n").split("|")
    status, uri, got = fields[0], fields[1], fields[2:6] + ["|".join(fields[6:]).replace('\\"', '"')]
    kind, wanted = expected.get(uri, ("?", None))
    bad = status != "200" or wanted is None or uri in seen or any(w != g and not (w == "*" and g) for w, g in zip(wanted, got))
    if bad:
        errors += 1
        if errors <= 3:
            print("widgets check: %s push %s: %s" % (kind, line.strip()[:200], "expected %s" % wanted), file=sys.stderr)
    seen.add(uri)
missing = len(set(expected) - seen)
if missing:
    print("widgets check: %d targets not pushed" % missing, file=sys.stderr)
print(errors + missing)
PY
)
  [ "$status" = 0 ] || { log "  widgets check: the sweep exited $status: $(tail -c 300 "$dir/sweep.err")"; errors=$((errors + 1)); }
  record widgets.check.errors "$errors"
  record widgets.check.pushes "$(wc -l <"$dir/requests.log")"
  log "  check: $(wc -l <"$dir/requests.log") pushes logged by the endpoint for 100 wake and 100 widgets targets, $errors errors;" \
    "sweep: $summary"
}

# widgets_sweep KEY TEMPLATE WAKES WIDGETS: one sweep of a fresh copy of TEMPLATE, where WAKES
# wake and WIDGETS widgets targets are due.
widgets_sweep() {
  local key=$1 template=$2 wakes=$3 widgets=$4 start elapsed summary status=0 sent widgets_sent errors
  copy_database "$template" "$work/$key.sqlite"
  start=$(now_ns)
  summary=$(sweep "$work/$key.sqlite" /usr/bin/time -v -o "$work/time.txt" "$bin/liveactivity-sweep" \
    2>"$work/$key.err") || status=$?
  elapsed=$(($(now_ns) - start))
  sent=$(field sent <<<"$summary" | head -1)
  widgets_sent=$(field widgets_sent <<<"$summary" | head -1)
  sent=${sent:-0} widgets_sent=${widgets_sent:-0}
  errors=$(( (wakes - sent) + (widgets - widgets_sent) ))
  [ "$errors" -ge 0 ] || errors=$((-errors))
  [ "$status" = 0 ] || errors=$((errors + 1))
  [ "$errors" = 0 ] || log "  $key: $errors errors (exit $status): $summary $(tail -c 300 "$work/$key.err")"
  record "widgets.$key.errors" "$errors"
  record "widgets.$key.rate" "$(awk -v n="$((sent + widgets_sent))" -v ns="$elapsed" 'BEGIN { print n / (ns / 1e9) }')"
  record "widgets.$key.seconds" "$(awk -v ns="$elapsed" 'BEGIN { print ns / 1e9 }')"
  record "widgets.$key.rss_mb" "$(awk '/Maximum resident/ { print $NF / 1024 }' "$work/time.txt")"
  record "widgets.$key.cpu_us" "$(awk -v n="$((wakes + widgets))" '/User time|System time/ { s += $NF }
    END { print s * 1e6 / n }' "$work/time.txt")"
}

widgets_run() {
  local half=$((widgets_n / 2)) round order key ref_port ref_pids page_port page_pids
  log "10 widgets: a sweep of $half registrations x 2 targets against $widgets_n wake-only, $rounds rounds;" \
    "the status page with widgets targets against part 6's"
  widgets_check
  fill "$work/widgets-wake-template.sqlite" "$widgets_n" "$widgets_n"
  fill "$work/widgets-mixed-template.sqlite" "$half" "$half" widgets
  for round in $(seq "$rounds"); do
    # Alternating which goes first, so neither always meets the machine as the other left it.
    if [ $((round % 2)) = 1 ]; then order="wake mixed"; else order="mixed wake"; fi
    for key in $order; do
      case $key in
        wake) widgets_sweep wake "$work/widgets-wake-template.sqlite" "$widgets_n" 0 ;;
        mixed) widgets_sweep mixed "$work/widgets-mixed-template.sqlite" "$half" "$half" ;;
      esac
    done
    log "  round $round: wake + widgets $(latest widgets.mixed.rate) pushes/s (errors $(latest widgets.mixed.errors))," \
      "wake only $(latest widgets.wake.rate) (errors $(latest widgets.wake.errors))"
  done

  status_fill "$work/widgets-page-ref.sqlite"
  status_fill "$work/widgets-page.sqlite" widgets
  log "  status page: $(sqlite3 "$work/widgets-page.sqlite" "SELECT count(*) FROM push_targets WHERE push_kind = 'widgets'") widgets" \
    "targets and $(sqlite3 "$work/widgets-page.sqlite" "SELECT count(*) FROM sweep_run_kinds WHERE push_kind = 'widgets'") runs' widgets counts stored"
  start_stack "$work/widgets-page-ref.sqlite"
  ref_port=$stack_port ref_pids=$stack_pids
  start_stack "$work/widgets-page.sqlite"
  page_port=$stack_port page_pids=$stack_pids
  curl -sf -o /dev/null "http://127.0.0.1:$ref_port/wakeup/status"  # warm: the first request opens the database
  curl -sf -o /dev/null "http://127.0.0.1:$page_port/wakeup/status"
  for round in $(seq "$rounds"); do
    if [ $((round % 2)) = 1 ]; then order="page page_ref"; else order="page_ref page"; fi
    for key in $order; do
      case $key in
        page) status_round widgets.page "http://127.0.0.1:$page_port/wakeup/status" ;;
        page_ref) status_round widgets.page_ref "http://127.0.0.1:$ref_port/wakeup/status" ;;
      esac
    done
    log "  round $round: page with widgets $(latest widgets.page.ms) ms, $(latest widgets.page.bytes) bytes;" \
      "without $(latest widgets.page_ref.ms) ms, $(latest widgets.page_ref.bytes) bytes"
  done
  stack_pids=$page_pids; stop_stack
  stack_pids=$ref_pids; stop_stack
}

widgets_table() {
  local half=$((widgets_n / 2)) m w errors_m errors_w errors_c
  errors_of() { awk -v k="$1.errors" '$1 == k { s += $2 } END { print s + 0 }' "$results"; }
  errors_c=$(errors_of widgets.check)
  errors_m=$(($(errors_of widgets.mixed) + errors_c)); errors_w=$(errors_of widgets.wake)
  m=$(value widgets.mixed.rate); w=$(value widgets.wake.rate)
  widgets_figure() { if [ "$2" != 0 ]; then echo "FAILED:$2"; else fmt "$(value "$1.rate")"; fi; }
  echo
  echo "10. Widgets (issue 31 point 7; the part 2 endpoint; reference: a wake-only sweep of as many pushes, same rounds)"
  printf '  %-36s %10s %10s %10s %12s %8s\n' "sweep of $widgets_n pushes" "pushes/s" "sweep s" "peak MB" "CPU us/push" "errors"
  printf '  %-36s %10s %10s %10s %12s %8s\n' "$half registrations x (wake + widgets)" "$(widgets_figure widgets.mixed "$errors_m")" \
    "$(fmt "$(value widgets.mixed.seconds)")" "$(fmt "$(value widgets.mixed.rss_mb)")" "$(fmt "$(value widgets.mixed.cpu_us)")" "$errors_m"
  printf '  %-36s %10s %10s %10s %12s %8s\n' "$widgets_n registrations, wake only" "$(widgets_figure widgets.wake "$errors_w")" \
    "$(fmt "$(value widgets.wake.seconds)")" "$(fmt "$(value widgets.wake.rss_mb)")" "$(fmt "$(value widgets.wake.cpu_us)")" "$errors_w"
  paste -d' ' <(awk '$1 == "widgets.mixed.rate" { print $2 }' "$results") <(awk '$1 == "widgets.wake.rate" { print $2 }' "$results") |
    awk '{ printf "%s%.2f", (NR > 1 ? ", " : "  wake + widgets / wake only by round: "), $1 / $2 } END { if (NR) print "" }'
  echo "  CPU per push (user + system, the steadier figure on a shared machine), wake + widgets / wake only:" \
    "$(ratio "$(value widgets.mixed.cpu_us)" "$(value widgets.wake.cpu_us)")"
  echo "  check: $(value widgets.check.pushes) pushes of 100 registrations x 2 targets to a logging copy of the endpoint," \
    "$errors_c not as SPEC 5.5 says (status 200, token, push type, topic, priority, expiration, payload)"
  echo "  target (issue 31): wake + widgets >= 0.9x wake only: $(verdict "$errors_m + $errors_w == 0 && $m >= 0.9 * $w") ($(ratio "$m" "$w"))"
  local p r pe re
  p=$(value widgets.page.ms); r=$(value widgets.page_ref.ms)
  pe=$(errors_of widgets.page); re=$(errors_of widgets.page_ref)
  printf '  %-36s %10s %10s %10s %12s %8s\n' "status page (20 requests a round)" "median ms" "slowest ms" "bytes" "" "errors"
  printf '  %-36s %10s %10s %10s %12s %8s\n' "with widgets targets and counts" "$(status_figure widgets.page)" \
    "$(fmt "$(value widgets.page.max_ms)")" "$(value widgets.page.bytes)" "" "$pe"
  printf '  %-36s %10s %10s %10s %12s %8s\n' "part 6's store (no widgets)" "$(status_figure widgets.page_ref)" \
    "$(fmt "$(value widgets.page_ref.max_ms)")" "$(value widgets.page_ref.bytes)" "" "$re"
  echo "  page with widgets / without: time $(ratio "$p" "$r"), size $(ratio "$(value widgets.page.bytes)" "$(value widgets.page_ref.bytes)")"
  echo "  target (issue 31, as issue 17): < 50 ms: $(verdict "$pe + $re == 0 && $p < 50"); < 200 kB: $(verdict "$(value widgets.page.bytes) < 200000")"
}
