#!/usr/bin/env python3
"""Part 12 of scripts/bench (issue 49 point 6): a simulated fleet, driven by fleet.sh.

The simulated phones of a fleet, through the real nginx, liveactivity-fcgi, liveactivity-sweep and
APNs stand-in, one simulated minute a step: the clock of every program is moved with
LIVEACTIVITY_TEST_CLOCK_OFFSET (the responder and the stand-in read it at start, so both are
started anew each step on listening sockets this script holds, as spawn-fcgi's supervisor would:
nginx's requests wait in the backlog meanwhile). A step at simulated minute k:

  1. stop the responder and the stand-in (once each has said it serves), start them with the
     clock at T0 + 60 k s;
  2. the phones whose activity starts at minute k register (POST /wakeup through nginx);
  3. one liveactivity-sweep run, as cron's of that minute;
  4. the stand-in's record of what it received since the last step: the wake pushes;
  5. each phone decides per the model (below) whether the wake launches the app and whether it
     helps, and the launched ones acknowledge (POST /wakeup/ack through nginx);
  6. each running activity's data age is sampled.

The model (a model, not Apple's behaviour; docs/PERFORMANCE.md "A simulated fleet"):
  - each activity starts (and registers) at a random minute of the first hour and lives until the
    end or iOS's 8 hours;
  - a share is swiped away at a random time of its life, with no unregister; a share has
    Background App Refresh off for its whole life (it registers saying so); a share is in Low
    Power Mode for a random while;
  - the carmaker's data of each car moves every M minutes (its own phase); a fetch sees the latest
    move at or before it, so a wake sees new data only after it moved;
  - a phone launches the app for a wake only with refresh on and a launch left in its budget: a
    bucket of K launches refilled at K an hour (K / 2 in Low Power Mode); the rest are dropped;
  - a launched app acks: in the device-state run with activities, backgroundRefresh, lowPower
    and, when an activity runs, changed; in the token-only run with the token alone.

Each wake pushed (answered 200 by the stand-in) is counted once, in the first that applies: to a
gone activity, with refresh off, dropped by the budget, launched and found unchanged data,
launched and helped. "Could not help" is the first, the second and the fourth.

Prints `key value` lines for fleet.sh; logs go to stderr.
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from array import array
from concurrent.futures import ThreadPoolExecutor

LIFETIME = 480  # minutes: iOS ends a Live Activity after 8 hours, and the backend's registration expires then


def log(message):
    print("fleet: " + message, file=sys.stderr, flush=True)


# MARK: - The fleet (the same for both runs: one seed)


class Phone:
    """One phone's plan, drawn once from the seed: when things happen to it."""

    def __init__(self, rng, index, args, minutes):
        self.token = "%064x" % rng.getrandbits(256)
        self.start = rng.randrange(0, min(args.start_within, minutes))
        self.end = min(minutes, self.start + LIFETIME)  # registered (and, unless swiped, running) until
        life = self.end - self.start
        # Drawn in the same order for every phone whatever its shares, so a share's change moves no one else's draws.
        swiped, swipe_at = rng.random() < args.swiped, self.start + 1 + rng.randrange(life)
        self.refresh_off = rng.random() < args.refresh_off
        low_power, low_start, low_length = rng.random() < args.low_power, self.start + rng.randrange(life), \
            rng.randint(args.low_power_min, args.low_power_max)
        self.gone_at = swipe_at if swiped else None
        self.low_power = (low_start, low_start + low_length) if low_power else None
        self.phase = rng.uniform(0, args.data_every * 60)  # seconds: the car's data moves at phase + j x M
        self.index = index

    def gone(self, minute):
        return self.gone_at is not None and minute >= self.gone_at

    def running(self, minute):
        return self.start <= minute < self.end and not self.gone(minute)

    def in_low_power(self, minute):
        return self.low_power is not None and self.low_power[0] <= minute < self.low_power[1]


def latest_data(phone, seconds, every):
    """The carmaker's timestamp (seconds from T0) a fetch at `seconds` sees: its latest move."""
    return phone.phase + ((seconds - phone.phase) // every) * every


class PhoneState:
    """What changes during a run: the data the activity shows, the launch budget."""

    def __init__(self, budget):
        self.shown = None
        self.tokens = float(budget)


# MARK: - The programs


class Servers:
    """liveactivity-fcgi and the stand-in on listening sockets held here, started anew each step."""

    def __init__(self, args, run_dir):
        self.args = args
        self.sockets = {}
        for name, path in (("fcgi", args.fcgi_socket), ("standin", args.standin_socket)):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listening.bind(path)
            listening.listen(1024)
            self.sockets[name] = listening
        self.env = dict(os.environ)
        self.env.update(
            LIVEACTIVITY_DB=os.path.join(run_dir, "fleet.sqlite"),
            STANDIN_DB=os.path.join(run_dir, "standin.sqlite"),
        )
        self.logs = {name: open(os.path.join(run_dir, name + ".log"), "ab") for name in ("fcgi", "standin", "sweep")}
        self.processes = []
        self.started_from = {}
        self.crashes = 0

    def environment(self, offset):
        return dict(self.env, LIVEACTIVITY_TEST_CLOCK_OFFSET="%.3f" % offset)

    def start(self, offset):
        env = self.environment(offset)
        self.started_from = {name: os.path.getsize(self.logs[name].name) for name in ("fcgi", "standin")}
        self.processes = [
            subprocess.Popen([os.path.join(self.args.bin, "liveactivity-fcgi"), "--workers", "8"],
                             stdin=self.sockets["fcgi"].fileno(), stdout=self.logs["fcgi"], stderr=self.logs["fcgi"], env=env),
            subprocess.Popen([os.path.join(self.args.bin, "liveactivity-apns-standin"), "--workers", "4"],
                             stdin=self.sockets["standin"].fileno(), stdout=self.logs["standin"],
                             stderr=self.logs["standin"], env=env),
        ]

    def serving(self):
        """Waits until each program started last has logged that it serves: its SIGTERM handler is
        set. Before that libfcgi's own is (FCGX_Init sets one that only raises a flag), and a
        SIGTERM landing there is swallowed: the program serves on until killed."""
        deadline = time.monotonic() + 20
        for name in ("fcgi", "standin"):
            path = self.logs[name].name
            while True:
                with open(path, "rb") as handle:
                    handle.seek(self.started_from[name])
                    if b"serving FastCGI" in handle.read():
                        break
                if time.monotonic() > deadline:
                    log("%s did not say it serves within 20 s" % name)
                    self.crashes += 1
                    break
                time.sleep(0.002)

    def stop(self):
        if self.processes:
            self.serving()
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                status = process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                status = process.wait()
            if status != 0:  # a stop is a result: anything but a clean exit counts against the run
                self.crashes += 1
                log("%s ended with status %d" % (os.path.basename(process.args[0]), status))
        self.processes = []

    def sweep(self, offset):
        result = subprocess.run([os.path.join(self.args.bin, "liveactivity-sweep")], env=self.environment(offset),
                                stdout=subprocess.PIPE, stderr=self.logs["sweep"], text=True)
        return result.returncode, result.stdout.strip()

    def close(self):
        self.stop()
        for listening in self.sockets.values():
            listening.close()
        for handle in self.logs.values():
            handle.close()


class Client:
    """POSTs through nginx on a few kept connections at once; counts what was not 2xx."""

    def __init__(self, port, threads):
        self.port = port
        self.local = threading.local()
        self.pool = ThreadPoolExecutor(max_workers=threads)
        self.errors = 0
        self.requests = 0
        self.lock = threading.Lock()
        self.samples = []

    def _connection(self):
        if getattr(self.local, "connection", None) is None:
            self.local.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        return self.local.connection

    def _post(self, path, body):
        data = json.dumps(body, separators=(",", ":"))
        for attempt in (1, 2):
            connection = self._connection()
            try:
                connection.request("POST", path, data, {"Content-Type": "application/json"})
                response = connection.getresponse()
                text = response.read()
                break
            except (ConnectionError, http.client.HTTPException, OSError) as error:
                # A kept connection nginx closed while idle: once more on a new one.
                connection.close()
                self.local.connection = None
                if attempt == 2:
                    with self.lock:
                        self.errors += 1
                        self.requests += 1
                    log("%s: %s" % (path, error))
                    return None
        with self.lock:
            self.requests += 1
            if not 200 <= response.status < 300:
                self.errors += 1
                if self.errors <= 5:
                    log("%s answered %d: %s" % (path, response.status, text[:200]))
                return None
        return json.loads(text)

    def post_all(self, requests):
        """[(path, body)] -> their answers (None for an error), in order."""
        return list(self.pool.map(lambda request: self._post(*request), requests))

    def close(self):
        self.pool.shutdown()


# MARK: - One run


def open_record(path):
    """The stand-in's record, read-only, once the stand-in has made it (it does at start)."""
    for _ in range(200):
        if os.path.exists(path):
            connection = sqlite3.connect("file:%s?mode=ro" % path, uri=True, timeout=10)
            if connection.execute("SELECT count(*) FROM sqlite_master WHERE name = 'received'").fetchone()[0]:
                return connection
            connection.close()
        time.sleep(0.05)
    raise RuntimeError("the stand-in made no record at " + path)


def percentile(sorted_values, fraction):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def run(args, fleet, mode):
    device_state = mode == "state"
    run_dir = os.path.join(args.work, mode)
    os.makedirs(run_dir, exist_ok=True)
    minutes = args.hours * 60
    every = args.data_every * 60
    by_token = {phone.token: phone for phone in fleet}
    states = [PhoneState(args.budget) for _ in fleet]
    starting = {}
    for phone in fleet:
        starting.setdefault(phone.start, []).append(phone)
    servers = Servers(args, run_dir)
    client = Client(args.port, args.threads)
    counts = dict(sent=0, gone=0, refresh_off=0, dropped=0, unchanged=0, helped=0, launched=0, acks=0,
                  failed_pushes=0, sweep_errors=0, paused_answers=0, registrations=0, unchanged_first=0)
    withheld = {}
    ages = array("d")
    phases = dict(restart=0.0, register=0.0, sweep=0.0, pushes=0.0, acks=0.0, sample=0.0)
    last_id = 0
    standin = None
    origin = time.time()
    started = time.monotonic()
    try:
        for minute in range(minutes):
            clock = time.monotonic()
            offset = origin + minute * 60 - time.time()  # every program's clock reads T0 + 60 k s now
            servers.stop()
            servers.start(offset)
            phases["restart"] += time.monotonic() - clock

            # Registrations: the phones whose activity starts now, the app in the foreground.
            clock = time.monotonic()
            requests = []
            for phone in starting.get(minute, []):
                states[phone.index].shown = latest_data(phone, minute * 60, every)
                body = {"pushToken": phone.token, "activityType": "charging"}
                if device_state:
                    body.update(activities=1, backgroundRefresh="denied" if phone.refresh_off else "available",
                                lowPower=phone.in_low_power(minute))
                requests.append(("/wakeup", body))
            for answer in client.post_all(requests):
                counts["registrations"] += 1
                if answer and answer.get("paused"):
                    counts["paused_answers"] += 1
            phases["register"] += time.monotonic() - clock

            clock = time.monotonic()
            status, summary = servers.sweep(offset)
            if status != 0 or " failed=0" not in " " + summary:
                counts["sweep_errors"] += 1
                log("minute %d: the sweep exited %d: %s" % (minute, status, summary))
            for part in summary.split():
                if part.startswith("withheld="):
                    for item in part[len("withheld="):].split(","):
                        reason, _, count = item.partition(":")
                        withheld[reason] = withheld.get(reason, 0) + int(count)
            phases["sweep"] += time.monotonic() - clock

            # What the stand-in received since the last step.
            clock = time.monotonic()
            if standin is None:
                standin = open_record(servers.env["STANDIN_DB"])
            rows = standin.execute("SELECT id, device_token, status, push_type FROM received WHERE id > ? ORDER BY id",
                                   (last_id,)).fetchall()
            woken = []
            for row_id, token, answer, push_type in rows:
                last_id = row_id
                if answer != 200 or push_type != "background" or token not in by_token:
                    counts["failed_pushes"] += 1
                    continue
                counts["sent"] += 1
                woken.append(by_token[token])
            phases["pushes"] += time.monotonic() - clock

            # Each woken phone, per the model.
            clock = time.monotonic()
            for phone, state in zip(fleet, states):
                if phone.start <= minute < phone.end:  # the budget refills with time, launched or not
                    rate = args.budget / (120.0 if phone.in_low_power(minute) else 60.0)
                    if minute > phone.start:
                        state.tokens = min(float(args.budget), state.tokens + rate)
            requests = []
            for phone in woken:
                state = states[phone.index]
                gone = phone.gone(minute)
                launches = not phone.refresh_off and state.tokens >= 1.0
                if gone:
                    counts["gone"] += 1
                elif phone.refresh_off:
                    counts["refresh_off"] += 1
                elif not launches:
                    counts["dropped"] += 1
                if not launches:
                    continue
                state.tokens -= 1.0
                counts["launched"] += 1
                body = {"pushToken": phone.token}
                if gone:
                    if device_state:
                        body.update(activities=0, backgroundRefresh="available", lowPower=phone.in_low_power(minute))
                else:
                    seen = latest_data(phone, minute * 60, every)
                    changed = seen > state.shown
                    counts["helped" if changed else "unchanged"] += 1
                    if not changed and minute == phone.start:  # the wake at once after the registration
                        counts["unchanged_first"] += 1
                    state.shown = max(state.shown, seen)
                    if device_state:
                        body.update(activities=1, backgroundRefresh="available", lowPower=phone.in_low_power(minute),
                                    changed=changed)
                requests.append(("/wakeup/ack", body))
            client.post_all(requests)
            counts["acks"] += len(requests)
            phases["acks"] += time.monotonic() - clock

            clock = time.monotonic()
            now = minute * 60
            for phone, state in zip(fleet, states):
                if phone.running(minute):
                    ages.append((now - state.shown) / 60.0)
            phases["sample"] += time.monotonic() - clock
            if minute % 60 == 59 or minute == minutes - 1:
                log("%s run: %d of %d minutes, %d wakes pushed, %.0f s" % (
                    mode, minute + 1, minutes, counts["sent"], time.monotonic() - started))
    finally:
        if standin is not None:
            standin.close()
        client.close()
        servers.close()

    # The acks as the backend judged them (ack_hours: SPEC 3's counters by outcome).
    database = sqlite3.connect(servers.env["LIVEACTIVITY_DB"])
    outcomes = dict(database.execute("SELECT outcome, sum(count) FROM ack_hours GROUP BY outcome").fetchall())
    database.close()

    ordered = sorted(ages)
    device_hours = sum(phone.end - phone.start for phone in fleet) / 60.0
    figures = dict(counts)
    figures.update(
        cannot_help=counts["gone"] + counts["refresh_off"] + counts["unchanged"],
        age_median=percentile(ordered, 0.5), age_p90=percentile(ordered, 0.9), age_samples=len(ordered),
        device_hours=device_hours, per_device_hour=counts["sent"] / device_hours if device_hours else 0.0,
        http_errors=client.errors, requests=client.requests, crashes=servers.crashes,
        acks_matched=outcomes.get("matched", 0), acks_duplicate=outcomes.get("duplicate", 0),
        acks_unmatched=outcomes.get("unmatched", 0), wall_seconds=time.monotonic() - started,
    )
    figures["errors"] = client.errors + counts["failed_pushes"] + counts["sweep_errors"] + servers.crashes
    for reason in ("noActivity", "paused", "lowPower", "stretched"):
        figures["withheld_" + reason] = withheld.get(reason, 0)
    for phase, seconds in phases.items():
        figures["seconds_" + phase] = seconds
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="folder of the built programs")
    parser.add_argument("--work", required=True, help="a folder of this run's own")
    parser.add_argument("--port", type=int, required=True, help="nginx's port in front of liveactivity-fcgi")
    parser.add_argument("--fcgi-socket", required=True, help="the responder's socket, as nginx names it")
    parser.add_argument("--standin-socket", required=True, help="the stand-in's socket, as nginx names it")
    parser.add_argument("--devices", type=int, default=2000)
    parser.add_argument("--hours", type=int, default=8)
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--runs", default="state token", help="which runs, in order")
    parser.add_argument("--threads", type=int, default=8, help="requests through nginx at once")
    # The model's rules (docs/PERFORMANCE.md): shares of the fleet, minutes, launches.
    parser.add_argument("--start-within", type=int, default=60, help="activities start in the first N minutes")
    parser.add_argument("--swiped", type=float, default=0.2, help="share swiped away, at a random time, no unregister")
    parser.add_argument("--refresh-off", type=float, default=0.1, help="share with Background App Refresh off")
    parser.add_argument("--low-power", type=float, default=0.2, help="share in Low Power Mode for a while")
    parser.add_argument("--low-power-min", type=int, default=60, help="shortest while, minutes")
    parser.add_argument("--low-power-max", type=int, default=180, help="longest while, minutes")
    parser.add_argument("--data-every", type=float, default=15, help="the carmaker's data moves every M minutes")
    parser.add_argument("--budget", type=int, default=3, help="launches an hour a phone allows (K)")
    args = parser.parse_args()
    # Stopped by the bench (SIGTERM on exit or Ctrl-C): stop the programs started here too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    rng = random.Random(args.seed)
    fleet = [Phone(rng, index, args, args.hours * 60) for index in range(args.devices)]
    plan = dict(phones=len(fleet), swiped=sum(p.gone_at is not None and p.gone_at < p.end for p in fleet),
                refresh_off=sum(p.refresh_off for p in fleet), low_power=sum(p.low_power is not None for p in fleet))
    log("%(phones)d phones: %(swiped)d swiped away, %(refresh_off)d with refresh off, %(low_power)d in Low Power Mode"
        " for a while" % plan)
    for key, value in plan.items():
        print("plan.%s %d" % (key, value), flush=True)
    for mode in args.runs.split():
        figures = run(args, fleet, mode)
        for key, value in figures.items():
            print("%s.%s %s" % (mode, key, ("%.4f" % value) if isinstance(value, float) else value), flush=True)


if __name__ == "__main__":
    main()
