# Part 11 of scripts/bench (issue 34 point 6), sourced by it (uses its helpers, $work, the endpoint
# of part 2, fill, sweep): what serving several apps costs the sweep.
#   - BENCH_APPS_N (100,000) due pushes in one liveactivity-sweep run: N / 2 of the default app
#     and N / 2 of app `two` of another team and key (its own bundle id, its own connection pool
#     and provider token: LIVEACTIVITY_APPS=two and the _TWO settings), against one app's sweep of
#     N in the same rounds (the order alternating), both to the endpoint of part 2; pushes/s
#     (every push of the run over its wall time, process start included), peak memory, CPU per
#     push. Target: two apps at >= 0.9 x one app. A push not answered 200 (the summary's sent=
#     short of the targets due) or a sweep exiting non-zero is an error, and a figure with any
#     error prints FAILED.

apps_n=${BENCH_APPS_N:-100000}

# apps_sweep KEY TEMPLATE [SETTINGS...]: one sweep of a fresh copy of TEMPLATE, where $apps_n
# pushes are due, with SETTINGS added to the sweep's environment.
apps_sweep() {
  local key=$1 template=$2 start elapsed summary status=0 sent errors
  shift 2
  copy_database "$template" "$work/apps-$key.sqlite"
  start=$(now_ns)
  summary=$(sweep "$work/apps-$key.sqlite" env "$@" /usr/bin/time -v -o "$work/time.txt" "$bin/liveactivity-sweep" \
    2>"$work/apps-$key.err") || status=$?
  elapsed=$(($(now_ns) - start))
  # Every app's pushes: the default app's "sent=", each further app's "two/sent=" (since 0c37d8b).
  sent=$(grep -o '\(^\| \)\([^ ]*/\)\?sent=[0-9]*' <<<"$summary" | awk -F= '{ s += $2 } END { print s + 0 }')
  errors=$((apps_n - sent))
  [ "$errors" -ge 0 ] || errors=$((-errors))
  [ "$status" = 0 ] || errors=$((errors + 1))
  [ "$errors" = 0 ] || log "  $key: $errors errors (exit $status): $summary $(tail -c 300 "$work/apps-$key.err")"
  record "apps.$key.errors" "$errors"
  record "apps.$key.rate" "$(awk -v n="$sent" -v ns="$elapsed" 'BEGIN { print n / (ns / 1e9) }')"
  record "apps.$key.seconds" "$(awk -v ns="$elapsed" 'BEGIN { print ns / 1e9 }')"
  record "apps.$key.rss_mb" "$(awk '/Maximum resident/ { print $NF / 1024 }' "$work/time.txt")"
  record "apps.$key.cpu_us" "$(awk -v n="$apps_n" '/User time|System time/ { s += $NF } END { print s * 1e6 / n }' "$work/time.txt")"
}

apps_run() {
  local half=$((apps_n / 2)) round order key
  log "11 several apps: a sweep of $half pushes of each of two apps of two teams against one app's $apps_n, $rounds rounds"
  openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$work/key-two.p8"
  local two=(LIVEACTIVITY_APPS=two APNS_TEAM_ID_TWO=BENCHTEAM2 APNS_KEY_ID_TWO=BENCHKEY02
    APNS_KEY_PATH_TWO="$work/key-two.p8" APNS_BUNDLE_ID_TWO=org.example.bench.two)
  fill "$work/apps-one-template.sqlite" "$apps_n" "$apps_n"
  fill "$work/apps-two-template.sqlite" "$apps_n" "$apps_n"
  # Half of the registrations (by token) are app two's; the counters recounted per app.
  sqlite3 "$work/apps-two-template.sqlite" <<SQL
BEGIN;
UPDATE push_targets SET app = 'two' WHERE registration_token IN
  (SELECT registration_token FROM push_targets ORDER BY registration_token LIMIT $half);
$recount_sql
COMMIT;
SQL
  log "  stored: $(sqlite3 "$work/apps-two-template.sqlite" "SELECT group_concat(app || ' ' || n, ', ') FROM
    (SELECT app, count(*) AS n FROM push_targets GROUP BY app)")"
  for round in $(seq "$rounds"); do
    # Alternating which goes first, so neither always meets the machine as the other left it.
    if [ $((round % 2)) = 1 ]; then order="two one"; else order="one two"; fi
    for key in $order; do
      case $key in
        one) apps_sweep one "$work/apps-one-template.sqlite" ;;
        two) apps_sweep two "$work/apps-two-template.sqlite" "${two[@]}" ;;
      esac
    done
    log "  round $round: two apps $(latest apps.two.rate) pushes/s (errors $(latest apps.two.errors))," \
      "one app $(latest apps.one.rate) (errors $(latest apps.one.errors))"
  done
}

apps_table() {
  local half=$((apps_n / 2)) t o errors_t errors_o
  errors_of() { awk -v k="$1.errors" '$1 == k { s += $2 } END { print s + 0 }' "$results"; }
  errors_t=$(errors_of apps.two); errors_o=$(errors_of apps.one)
  t=$(value apps.two.rate); o=$(value apps.one.rate)
  apps_figure() { if [ "$2" != 0 ]; then echo "FAILED:$2"; else fmt "$(value "$1.rate")"; fi; }
  echo
  echo "11. Several apps (issue 34 point 6; the part 2 endpoint; reference: one app's sweep of as many pushes, same rounds)"
  printf '  %-36s %10s %10s %10s %12s %8s\n' "sweep of $apps_n pushes" "pushes/s" "sweep s" "peak MB" "CPU us/push" "errors"
  printf '  %-36s %10s %10s %10s %12s %8s\n' "two apps of two teams, $half each" "$(apps_figure apps.two "$errors_t")" \
    "$(fmt "$(value apps.two.seconds)")" "$(fmt "$(value apps.two.rss_mb)")" "$(fmt "$(value apps.two.cpu_us)")" "$errors_t"
  printf '  %-36s %10s %10s %10s %12s %8s\n' "one app" "$(apps_figure apps.one "$errors_o")" \
    "$(fmt "$(value apps.one.seconds)")" "$(fmt "$(value apps.one.rss_mb)")" "$(fmt "$(value apps.one.cpu_us)")" "$errors_o"
  paste -d' ' <(awk '$1 == "apps.two.rate" { print $2 }' "$results") <(awk '$1 == "apps.one.rate" { print $2 }' "$results") |
    awk '{ printf "%s%.2f", (NR > 1 ? ", " : "  two apps / one app by round: "), $1 / $2 } END { if (NR) print "" }'
  echo "  CPU per push (user + system), two apps / one app: $(ratio "$(value apps.two.cpu_us)" "$(value apps.one.cpu_us)")"
  echo "  target (issue 34): two apps >= 0.9x one app: $(verdict "$errors_t + $errors_o == 0 && $t >= 0.9 * $o") ($(ratio "$t" "$o"))"
}
