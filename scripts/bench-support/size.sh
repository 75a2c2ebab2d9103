# Part 9 of scripts/bench, sourced by it (uses its helpers, $work, fill and sweep): issue 35's
# size and idle figures.
#   - each program as the package ships it (scripts/package's .deb, unpacked: release, the Swift
#     runtime linked in, debian/rules' linker flags, stripped) and the .deb, against the same build linked to the
#     toolchain's shared runtime ($bin, stripped: what the code itself weighs) and the goals
#     (12 MB a program, 8 MB the .deb);
#   - an idle cron run: the packaged sweep over 100,000 registrations of which none is due, its
#     peak resident memory and CPU time (user + system) against the shared-runtime build's on the
#     same database (goals: 15 MB, and no more than 28 ms of CPU); with BENCH_BASELINE_SWEEP, the
#     build before on the same rows in the same rounds (issue 52: an idle run no slower).

size_rows=${BENCH_SIZE_ROWS:-100000}

size_run() {
  log "9 size: scripts/package (the programs as debian/rules builds them), an idle sweep over $size_rows rows"
  local program round deb
  mkdir -p "$work/size/shared" "$work/size/root"
  # The package itself, and its programs as it installs them: the flags, the runtime linked in
  # and the stripping are debian/rules', not a copy of them here.
  deb=$(cd "$root" && bash scripts/package 2>"$work/size/package.log" | tail -n 1)
  if [ ! -f "$deb" ]; then log "scripts/package failed: $(tail -3 "$work/size/package.log")"; exit 1; fi
  dpkg-deb -x "$deb" "$work/size/root"
  ln -sfn "$work/size/root/usr/bin" "$work/size/static"
  for program in liveactivity-fcgi liveactivity-sweep; do
    strip -o "$work/size/shared/$program" "$bin/$program"
    record "size.static.$program.mb" "$(stat -c %s "$work/size/static/$program" | awk '{ print $1 / 1048576 }')"
    record "size.shared.$program.mb" "$(stat -c %s "$work/size/shared/$program" | awk '{ print $1 / 1048576 }')"
  done
  record size.deb.mb "$(stat -c %s "$deb" | awk '{ print $1 / 1048576 }')"
  record size.installed.mb "$(dpkg-deb -f "$deb" Installed-Size | awk '{ print $1 / 1024 }')"

  cc -O2 -o "$work/size/rusage-run" "$support/rusage-run.c"
  fill "$work/idle.sqlite" "$size_rows" 0
  local builds="static shared"
  if [ -n "${BENCH_BASELINE_SWEEP:-}" ]; then
    builds+=" baseline"
    mkdir -p "$work/size/baseline"
    ln -sf "$BENCH_BASELINE_SWEEP" "$work/size/baseline/liveactivity-sweep"
    baseline_template "$work/idle.sqlite" "$work/idle-baseline.sqlite"
  fi
  for round in $(seq "$rounds"); do
    for build in $builds; do
      if [ "$build" = baseline ]; then
        copy_database "$work/idle-baseline.sqlite" "$work/idle-run.sqlite"
      else
        copy_database "$work/idle.sqlite" "$work/idle-run.sqlite"
      fi
      rm -rf "$work/idle-run.sqlite.sweep"
      # The kernel's own accounting of the child (wait4's rusage, microseconds; /usr/bin/time
      # rounds to 10 ms, about the whole run): peak resident KiB, then user + system ms. Measured
      # from a small C parent: under python3 the figure counted python3's own pages and fork
      # (rusage-run.c says why).
      if ! sweep "$work/idle-run.sqlite" "$work/size/rusage-run" "$work/size/time.txt" \
        "$work/size/$build/liveactivity-sweep" >"$work/size/summary.txt" 2>&1; then
        log "idle sweep ($build) failed: $(tail -2 "$work/size/summary.txt")"; exit 1
      fi
      # An idle run sends nothing; a summary that says it did (or failed) is an error of the figure.
      if ! grep -q "sent=0 " "$work/size/summary.txt" || ! grep -q "failed=0 " "$work/size/summary.txt"; then
        log "idle sweep ($build) did something: $(tail -1 "$work/size/summary.txt")"; exit 1
      fi
      record "idle.$build.rss_mb" "$(awk '{ print $1 / 1024 }' "$work/size/time.txt")"
      record "idle.$build.cpu_ms" "$(awk '{ print $2 }' "$work/size/time.txt")"
    done
  done
}

size_table() {
  local program
  echo
  echo "9. Size (issue 35: stripped, as the package ships the programs; reference: the same code on the shared runtime)"
  printf '  %-22s %14s %14s %10s %8s\n' "" "packaged MB" "shared MB" "goal MB" ""
  for program in liveactivity-fcgi liveactivity-sweep; do
    printf '  %-22s %14s %14s %10s %8s\n' "$program" "$(fmt "$(value "size.static.$program.mb")")" \
      "$(fmt "$(value "size.shared.$program.mb")")" 12 "$(verdict "$(value "size.static.$program.mb") <= 12")"
  done
  printf '  %-22s %14s %14s %10s %8s\n' ".deb" "$(fmt "$(value size.deb.mb)")" "" 8 "$(verdict "$(value size.deb.mb) <= 8")"
  printf '  %-22s %14s\n' "installed" "$(fmt "$(value size.installed.mb)")"
  echo "  idle cron run, $size_rows registrations, none due (medians of $rounds):"
  printf '  %-22s %14s %14s %10s %8s\n' "" "packaged" "shared" "goal" ""
  printf '  %-22s %14s %14s %10s %8s\n' "peak resident MB" "$(fmt "$(value idle.static.rss_mb)")" \
    "$(fmt "$(value idle.shared.rss_mb)")" 15 "$(verdict "$(value idle.static.rss_mb) <= 15")"
  printf '  %-22s %14s %14s %10s %8s\n' "CPU ms (user + sys)" "$(fmt "$(value idle.static.cpu_ms)")" \
    "$(fmt "$(value idle.shared.cpu_ms)")" 28 "$(verdict "$(value idle.static.cpu_ms) <= 28")"
  if [ -n "${BENCH_BASELINE_SWEEP:-}" ]; then
    # The build before is linked as $bin is (the shared runtime): set against that column.
    echo "  the build before (BENCH_BASELINE_SWEEP), same rows and rounds: $(fmt "$(value idle.baseline.rss_mb)") MB," \
      "$(fmt "$(value idle.baseline.cpu_ms)") ms of CPU; this build (shared) / before: memory" \
      "$(ratio "$(value idle.shared.rss_mb)" "$(value idle.baseline.rss_mb)"), CPU" \
      "$(ratio "$(value idle.shared.cpu_ms)" "$(value idle.baseline.cpu_ms)")"
  fi
}
