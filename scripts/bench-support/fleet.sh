# Part 12 of scripts/bench (issue 49 point 6), sourced by it (uses its helpers, $work, the key and
# certificate): a simulated fleet.
#   - BENCH_FLEET_N (2,000) phones over BENCH_FLEET_HOURS (8) simulated hours through the real
#     nginx (the shipped locations), liveactivity-fcgi, liveactivity-sweep (one run a simulated
#     minute, as cron's) and the APNs stand-in (HTTP/2 + TLS behind its shipped nginx template),
#     run twice with the same fleet (one seed): once with the device state in registrations and
#     acks, once with token-only acks. The phones are scripts/bench-support/fleet.py, whose
#     header has the model and how simulated time advances (every program's clock moved with
#     LIVEACTIVITY_TEST_CLOCK_OFFSET, the responder and the stand-in started anew each minute).
#   - Per run: wake pushes sent; wakes that could not help (to a gone activity, with refresh off,
#     or launched and found unchanged data); wakes the phones' budget dropped; the data age on the
#     running activities (median, 90th percentile, sampled every simulated minute); wakes per
#     device-hour beside Apple's two or three. Goal: wakes that cannot help <= 0.2x token-only's,
#     data age median <= 1.1x token-only's.
#   - A request nginx did not answer 2xx, a push the stand-in did not answer 200, a sweep exiting
#     non-zero or reporting failed pushes, and a program that did not stop cleanly are errors:
#     a run with any prints FAILED for its figures.

fleet_n=${BENCH_FLEET_N:-2000}
fleet_hours=${BENCH_FLEET_HOURS:-8}

fleet_run() {
  local dir="$work/fleet" api_port standin_port status=0
  log "12 a simulated fleet: $fleet_n phones over $fleet_hours simulated hours, with device state and token-only"
  mkdir -p "$dir/api-nginx/snippets" "$dir/standin-nginx/tmp"
  api_port=$(free_port)
  standin_port=$(free_port)
  # The responder's nginx as part 1's (rate zone keyed by connection: every phone here is 127.0.0.1).
  cp "$root/nginx/liveactivity-locations.conf" "$root/nginx/liveactivity-fastcgi.conf" "$dir/api-nginx/snippets/"
  sed -e "s#@PREFIX@#$dir/api-nginx#g; s#@PORT@#$api_port#g; s#@SOCKET@#$dir/fcgi.sock#g" \
      -e "s#@WORKERS@#8#g; s#@RATE@#1000000r/s#g" \
      -e 's#limit_req_zone $liveactivity_client_key #limit_req_zone $liveactivity_client_key$connection #' \
      "$root/nginx/local.conf.template" >"$dir/api-nginx/nginx.conf"
  grep -q '$connection zone=liveactivity_clients' "$dir/api-nginx/nginx.conf" ||
    { log "the rate zone of nginx/local.conf.template is no longer keyed as fleet.sh expects"; exit 1; }
  { echo "daemon off;"; echo "master_process off;"
    sed -e "s#@PREFIX@#$dir/standin-nginx#g; s#@PORT@#$standin_port#g; s#@SOCKET@#$dir/standin.sock#g" \
        -e "s#@CERT@#$work/tls-cert.pem#g; s#@CERT_KEY@#$work/tls-key.pem#g" \
        -e "s#@GOAWAY_AFTER@#10000000#g; s#@RESET_AFTER_ANSWER@#0#g; s#@PACE@#1000000r/s#g" \
        "$root/nginx/apns-standin.conf.template"; } >"$dir/standin-nginx/nginx.conf"
  nginx -p "$dir/api-nginx/" -c "$dir/api-nginx/nginx.conf" -e "$dir/api-nginx/error.log" &
  pids+=("$!")
  nginx -p "$dir/standin-nginx/" -c "$dir/standin-nginx/nginx.conf" -e "$dir/standin-nginx/error.log" &
  pids+=("$!")
  wait_http "https://127.0.0.1:$standin_port/standin-ready" --http2 --cacert "$work/tls-cert.pem"
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$api_port/" && break; sleep 0.1; done
  # The settings every program reads (the run's databases and clock come from fleet.py).
  cat >"$dir/fleet.env" <<CONFIG
APNS_KEY_ID=BENCHKEY01
APNS_TEAM_ID=BENCHTEAM1
APNS_BUNDLE_ID=org.example.bench
APNS_KEY_PATH=$work/key.p8
APNS_HOST=https://127.0.0.1:$standin_port
APNS_CA_FILE=$work/tls-cert.pem
CONFIG
  LIVEACTIVITY_CONFIG="$dir/fleet.env" python3 "$support/fleet.py" --bin "$bin" --work "$dir" --port "$api_port" \
    --fcgi-socket "$dir/fcgi.sock" --standin-socket "$dir/standin.sock" \
    --devices "$fleet_n" --hours "$fleet_hours" >"$dir/figures" || status=$?
  [ "$status" = 0 ] || { log "  fleet.py exited $status"; record fleet.state.errors 1; record fleet.token.errors 1; }
  while read -r key value; do record "fleet.$key" "$value"; done <"$dir/figures"
  log "  with device state: $(latest fleet.state.sent) wakes, $(latest fleet.state.cannot_help) could not help," \
    "$(latest fleet.state.errors) errors, $(latest fleet.state.wall_seconds) s;" \
    "token-only: $(latest fleet.token.sent) wakes, $(latest fleet.token.cannot_help) could not help," \
    "$(latest fleet.token.errors) errors, $(latest fleet.token.wall_seconds) s"
}

fleet_table() {
  local mode errors figure s t
  fleet_figure() {  # KEY [printf format]: the run's figure, or FAILED:N when the run had errors
    local errors; errors=$(latest "fleet.${1%%.*}.errors")
    if [ "${errors:-1}" != 0 ]; then echo "FAILED:${errors:-?}"; else awk -v v="$(latest "fleet.$1")" -v f="${2:-%.0f}" 'BEGIN { printf f, v }'; fi
  }
  echo
  echo "12. A simulated fleet (issue 49; $fleet_n phones, $fleet_hours simulated hours, one sweep a simulated minute;"
  echo "    a model, not Apple's behaviour: docs/PERFORMANCE.md \"A simulated fleet\" has its rules)"
  echo "  the fleet: $(latest fleet.plan.phones) phones; $(latest fleet.plan.swiped) swiped away, $(latest fleet.plan.refresh_off)" \
    "with refresh off (registrations answered paused: $(latest fleet.state.paused_answers)), $(latest fleet.plan.low_power)" \
    "in Low Power Mode for a while"
  printf '  %-46s %16s %16s\n' "" "device state" "token-only"
  for row in "wake pushes sent:sent" "  could not help:cannot_help" "    to a gone activity:gone" \
    "    with refresh off:refresh_off" "    launched, found unchanged data:unchanged" \
    "      the first, at once after registering:unchanged_first" "  dropped by the phone's budget:dropped" \
    "  launched and brought new data:helped" "acks sent (each launched wake):acks"; do
    printf '  %-46s %16s %16s\n' "${row%%:*}" "$(fleet_figure "state.${row#*:}")" "$(fleet_figure "token.${row#*:}")"
  done
  printf '  %-46s %16s %16s\n' "  matched / duplicate / unmatched" \
    "$(fleet_figure state.acks_matched) / $(fleet_figure state.acks_duplicate) / $(fleet_figure state.acks_unmatched)" \
    "$(fleet_figure token.acks_matched) / $(fleet_figure token.acks_duplicate) / $(fleet_figure token.acks_unmatched)"
  printf '  %-46s %16s %16s\n' "data age on the activity, median (min)" "$(fleet_figure state.age_median %.1f)" \
    "$(fleet_figure token.age_median %.1f)"
  printf '  %-46s %16s %16s\n' "data age, 90th percentile (min)" "$(fleet_figure state.age_p90 %.1f)" \
    "$(fleet_figure token.age_p90 %.1f)"
  printf '  %-46s %16s %16s\n' "wakes per device-hour (Apple advises 2-3)" "$(fleet_figure state.per_device_hour %.2f)" \
    "$(fleet_figure token.per_device_hour %.2f)"
  printf '  %-46s %16s %16s\n' "withheld by the sweep: noActivity, paused" \
    "$(fleet_figure state.withheld_noActivity), $(fleet_figure state.withheld_paused)" \
    "$(fleet_figure token.withheld_noActivity), $(fleet_figure token.withheld_paused)"
  printf '  %-46s %16s %16s\n' "  lowPower, stretched" \
    "$(fleet_figure state.withheld_lowPower), $(fleet_figure state.withheld_stretched)" \
    "$(fleet_figure token.withheld_lowPower), $(fleet_figure token.withheld_stretched)"
  printf '  %-46s %16s %16s\n' "errors (non-2xx, failed pushes, sweeps, stops)" "$(latest fleet.state.errors)" \
    "$(latest fleet.token.errors)"
  printf '  %-46s %16s %16s\n' "wall time (s)" "$(awk -v v="$(latest fleet.state.wall_seconds)" 'BEGIN { printf "%.0f", v }')" \
    "$(awk -v v="$(latest fleet.token.wall_seconds)" 'BEGIN { printf "%.0f", v }')"
  for mode in state token; do
    echo "  $mode run's wall time by phase (s): $(for phase in restart register sweep pushes acks sample; do
      printf '%s %.0f, ' "$phase" "$(latest "fleet.$mode.seconds_$phase")"; done | sed 's/, $//')"
  done
  errors=$(( $(latest fleet.state.errors) + $(latest fleet.token.errors) ))
  s=$(latest fleet.state.cannot_help); t=$(latest fleet.token.cannot_help)
  echo "  goal: wakes that cannot help <= 0.2x token-only's ($(ratio "$s" "$t")x), data age median <= 1.1x" \
    "($(ratio "$(latest fleet.state.age_median)" "$(latest fleet.token.age_median)")x):" \
    "$(if [ "$errors" != 0 ]; then echo "FAILED (errors)"; elif awk -v s="$s" -v t="$t" \
      -v a="$(latest fleet.state.age_median)" -v b="$(latest fleet.token.age_median)" \
      'BEGIN { exit !(s <= 0.2 * t && a <= 1.1 * b) }'; then echo met; else echo "not met"; fi)"
}
