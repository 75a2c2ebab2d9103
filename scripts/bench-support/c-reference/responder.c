/* scripts/bench: the C reference for the registration path. A minimal libfcgi + SQLite
 * responder doing the work liveactivity-fcgi does (SPEC section 3) behind the same nginx: routes
 * on the path's end, method, Content-Type and body-size checks, the strict JSON reader of json.c,
 * the token, type and environment rules with the same messages, both caps (the app's
 * registrations, and those of the app never answered 200 in the registration's environment)
 * from the wake rows of target_groups, and the statements SQLiteStoreConnection+Registrations.swift
 * runs for a registration of the default app without a widgets target or device state: a SELECT
 * of the registration's stored push targets (keyed by token and app), then either the refresh of
 * its wake target (its 200s kept in the same environment, its cadence columns set anew; a
 * widgets target it no longer asks for deleted) or, under the caps, the grouped count and the
 * INSERT of a wake target keyed (registration_token, 'wake', app); then the counters' change
 * of the write (as TargetCounting decides it: targets, unproven, wake-ups) added by the same
 * INSERT ... ON CONFLICT (push_kind, environment, activity_type, app) as ours. Unregister reads
 * what it deleted (DELETE ... RETURNING) to take it off the counters. One BEGIN IMMEDIATE ...
 * COMMIT per request, on a database file our own build created and migrated (same schema and
 * indexes), opened with the pragmas ours sets (WAL, synchronous=NORMAL, busy timeout 5 s,
 * trusted_schema off). At the unproven cap ours first evicts held junk (SPEC 5's guard); the
 * bench lifts both caps, so neither ever refuses there, and this one only refuses.
 * Unregister reads only pushToken, as SPEC section 3 says (ours also checks activityType and
 * environment there). Health answers for the bench's start-up check; metrics are not served.
 *
 *   reference-responder --socket PATH --db PATH [--threads 64] [--connections shared|per-thread]
 *   environment: LIVEACTIVITY_MAX_REGISTRATIONS (100000), LIVEACTIVITY_MAX_UNPROVEN (10000),
 *                LIVEACTIVITY_EXPIRY_HOURS (8),
 *                APNS_ENVIRONMENT (production)
 *
 * Threads: one blocking libfcgi worker per kept nginx connection, as ours (nginx keeps up to
 * --threads connections open, each bound to a worker while it lasts, so fewer threads would leave
 * kept connections unserved; libfcgi has no event-driven API). shared (the default, and the
 * faster): the workers share one SQLite connection under a mutex. per-thread: a connection
 * each, serialized by SQLite's write lock, whose busy handler sleeps: measured here at 64
 * connections, 5,000-5,300 req/s with p99 0.5-0.7 s, against 6,300-6,600 and p99 29-33 ms
 * shared on the same loaded machine. An adaptive mutex and SQLite without allocation
 * statistics were no faster.
 * Build: cc -O2 -o reference-responder responder.c json.c -lfcgi -lsqlite3 -lpthread -lm
 */
#define _GNU_SOURCE
#include <fcgiapp.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "json.h"

#define MAX_BODY 4096

struct store {
    sqlite3 *db;
    sqlite3_stmt *begin, *commit, *rollback, *stored, *refresh, *remove_target, *count, *total, *insert, *remove,
        *adjust;
};

/* The most push targets a registration has (a wake and a widgets target), with room to spare. */
#define MAX_TARGETS 8

/* A target as the counters count it: its group (kind, type, environment; the app is the default
 * one throughout), whether it was ever answered 200, and its wake-ups (push_count). */
struct counted {
    char kind[16], type[16], environment[16];
    int proven;
    long long wakeups;
};

/* The app every request here belongs to: the shipped locations set no LIVEACTIVITY_APP. */
static const char *const app = "default";

static const char *db_path;
static int listen_socket, per_thread;
static long long cap = 100000, unproven_cap = 10000, expiry_ms = 8LL * 3600 * 1000;
static const char *default_environment = "production";
static struct store shared_store;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) {
        fprintf(stderr, "reference-responder: %s: %s\n", sqlite3_errmsg(db), sql);
        exit(1);
    }
    return s;
}

static void open_store(struct store *s) {
    if (sqlite3_open_v2(db_path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fprintf(stderr, "reference-responder: cannot open %s\n", db_path);
        exit(1);
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, 5000);
    sqlite3_exec(s->db, "PRAGMA trusted_schema=OFF; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
    s->begin = prepare(s->db, "BEGIN IMMEDIATE");
    s->commit = prepare(s->db, "COMMIT");
    s->rollback = prepare(s->db, "ROLLBACK");
    /* The statements of SQLiteStoreConnection+Registrations.swift, as it binds them. */
    s->stored = prepare(s->db,
        "SELECT push_kind, push_token, environment, activity_type, last_push_at IS NOT NULL, push_count FROM push_targets "
        "WHERE registration_token = ?1 AND app = ?2");
    s->refresh = prepare(s->db,
        "UPDATE push_targets SET activity_type = ?1, environment = ?2, registered_at = ?3, expires_at = ?4, "
        "next_push_at = ?5, consecutive_failures = 0, last_error = NULL, requested_interval = ?6, "
        "last_push_at = CASE WHEN ?7 THEN last_push_at END, "
        "activities = ?8, background_refresh = ?9, low_power = ?10, unchanged_acks = ?11, waiting_changed = NULL "
        "WHERE registration_token = ?12 AND push_kind = ?13 AND app = ?14");
    s->remove_target = prepare(s->db,
        "DELETE FROM push_targets WHERE registration_token = ?1 AND push_kind = ?2 AND app = ?3");
    s->count = prepare(s->db,
        "SELECT app, environment, sum(min(max(n, 0), 1125899906842624)), sum(min(max(unproven, 0), 1125899906842624)) "
        "FROM target_groups WHERE push_kind = 'wake' GROUP BY app, environment");
    s->total = prepare(s->db,
        "SELECT coalesce(sum(min(max(n, 0), 1125899906842624)), 0) FROM target_groups WHERE push_kind = 'wake'");
    s->insert = prepare(s->db,
        "INSERT INTO push_targets (registration_token, push_kind, push_token, activity_type, environment, registered_at, "
        "expires_at, requested_interval, next_push_at, app, activities, background_refresh, low_power, unchanged_acks) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
    /* last_push_at itself, not IS NOT NULL: SQLite 3.40 returns that expression wrong from a
     * DELETE on a WITHOUT ROWID table (ours reads it the same way). */
    s->remove = prepare(s->db,
        "DELETE FROM push_targets WHERE registration_token = ?1 AND app = ?2 "
        "RETURNING push_kind, activity_type, environment, last_push_at, app, push_count");
    s->adjust = prepare(s->db,
        "INSERT INTO target_groups (push_kind, environment, activity_type, n, unproven, app, wakeups) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
        "ON CONFLICT (push_kind, environment, activity_type, app) DO UPDATE SET "
        "n = n + excluded.n, unproven = unproven + excluded.unproven, wakeups = wakeups + excluded.wakeups");
}

static int run(sqlite3_stmt *s) {
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Adds the counters' change of `removed` targets going and `added` ones coming (their wake-ups
 * with them), one statement per group whose counts change (TargetCounting.deltas). */
static int adjust_counts(struct store *s, const struct counted *removed, int removed_count, const struct counted *added,
                         int added_count) {
    struct { const struct counted *group; long long n, unproven, wakeups; } deltas[2 * MAX_TARGETS + 2];
    int groups = 0;
    for (int i = 0; i < removed_count + added_count; i++) {
        const struct counted *t = i < removed_count ? &removed[i] : &added[i - removed_count];
        int sign = i < removed_count ? -1 : 1, g = 0;
        while (g < groups && (strcmp(deltas[g].group->kind, t->kind) || strcmp(deltas[g].group->type, t->type) ||
                              strcmp(deltas[g].group->environment, t->environment)))
            g++;
        if (g == groups) deltas[groups++] = (typeof(deltas[0])){ t, 0, 0, 0 };
        deltas[g].n += sign;
        if (!t->proven) deltas[g].unproven += sign;
        deltas[g].wakeups += sign * t->wakeups;
    }
    for (int g = 0; g < groups; g++) {
        if (!deltas[g].n && !deltas[g].unproven && !deltas[g].wakeups) continue;
        sqlite3_bind_text(s->adjust, 1, deltas[g].group->kind, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->adjust, 2, deltas[g].group->environment, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s->adjust, 3, deltas[g].group->type, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(s->adjust, 4, deltas[g].n);
        sqlite3_bind_int64(s->adjust, 5, deltas[g].unproven);
        sqlite3_bind_text(s->adjust, 6, app, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s->adjust, 7, deltas[g].wakeups);
        int rc = run(s->adjust);
        if (rc) return rc;
    }
    return SQLITE_OK;
}

static void set_counted(struct counted *t, const char *kind, const char *type, const char *environment, int proven,
                        long long wakeups) {
    snprintf(t->kind, sizeof t->kind, "%s", kind ? kind : "");
    snprintf(t->type, sizeof t->type, "%s", type ? type : "");
    snprintf(t->environment, sizeof t->environment, "%s", environment ? environment : "");
    t->proven = proven;
    t->wakeups = wakeups;
}

/* The cadence columns of a registration that reported no device state: activities,
 * background_refresh and low_power not said, no unchanged acks (CadenceState.storedValues). */
static void bind_no_device_state(sqlite3_stmt *statement, int first) {
    sqlite3_bind_null(statement, first);
    sqlite3_bind_null(statement, first + 1);
    sqlite3_bind_null(statement, first + 2);
    sqlite3_bind_int64(statement, first + 3, 0);
}

/* 0 done, 1 refused for a cap, else the SQLite error. One transaction: the registration's stored
 * targets read; a stored registration refreshed whatever the counts (its wake target refreshed,
 * any other target deleted: a registration without widgetPushToken has none), a new one counted
 * against both caps of its app and its wake target inserted; then the counters' change. */
static int store_register(struct store *s, const char *token, const char *type, const char *environment) {
    long long now = now_ms(), count = 0, unproven = 0;
    struct counted stored[MAX_TARGETS], kept;
    int wake_same_token[MAX_TARGETS], targets = 0, refreshed = 0;
    int rc = run(s->begin);
    if (rc) return rc;
    sqlite3_bind_text(s->stored, 1, token, -1, SQLITE_STATIC);
    sqlite3_bind_text(s->stored, 2, app, -1, SQLITE_STATIC);
    while ((rc = sqlite3_step(s->stored)) == SQLITE_ROW && targets < MAX_TARGETS) {
        const char *kind = (const char *)sqlite3_column_text(s->stored, 0);
        const char *stored_token = (const char *)sqlite3_column_text(s->stored, 1);
        set_counted(&stored[targets], kind, (const char *)sqlite3_column_text(s->stored, 3),
                    (const char *)sqlite3_column_text(s->stored, 2), sqlite3_column_int(s->stored, 4),
                    sqlite3_column_int64(s->stored, 5));
        wake_same_token[targets] = kind && !strcmp(kind, "wake") && stored_token && !strcmp(stored_token, token);
        targets++;
    }
    sqlite3_reset(s->stored);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) goto done;
    rc = SQLITE_OK;
    /* Every target the registration has takes its registration's environment: the first row's. */
    int keeps_proof = targets > 0 && !strcmp(stored[0].environment, environment);
    for (int i = 0; i < targets && !rc; i++) {
        if (wake_same_token[i]) {
            sqlite3_bind_text(s->refresh, 1, type, -1, SQLITE_STATIC);
            sqlite3_bind_text(s->refresh, 2, environment, -1, SQLITE_STATIC);
            sqlite3_bind_int64(s->refresh, 3, now);
            sqlite3_bind_int64(s->refresh, 4, now + expiry_ms);
            sqlite3_bind_int64(s->refresh, 5, now);
            sqlite3_bind_null(s->refresh, 6);
            sqlite3_bind_int64(s->refresh, 7, keeps_proof);
            bind_no_device_state(s->refresh, 8);
            sqlite3_bind_text(s->refresh, 12, token, -1, SQLITE_STATIC);
            sqlite3_bind_text(s->refresh, 13, "wake", -1, SQLITE_STATIC);
            sqlite3_bind_text(s->refresh, 14, app, -1, SQLITE_STATIC);
            rc = run(s->refresh);
            /* A refresh keeps the target's wake-ups. */
            set_counted(&kept, "wake", type, environment, keeps_proof && stored[i].proven, stored[i].wakeups);
            refreshed = 1;
        } else {
            sqlite3_bind_text(s->remove_target, 1, token, -1, SQLITE_STATIC);
            sqlite3_bind_text(s->remove_target, 2, stored[i].kind, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(s->remove_target, 3, app, -1, SQLITE_STATIC);
            rc = run(s->remove_target);
        }
    }
    if (!rc && targets == 0) {
        /* The caps: the app's registrations (its wake targets), and those of the app never
         * answered 200 in its environment. */
        while ((rc = sqlite3_step(s->count)) == SQLITE_ROW) {
            const char *group_app = (const char *)sqlite3_column_text(s->count, 0);
            if (!group_app || strcmp(group_app, app)) continue;
            const char *group = (const char *)sqlite3_column_text(s->count, 1);
            long long n = sqlite3_column_int64(s->count, 2);
            count += n > 0 ? n : 0;
            if (group && !strcmp(group, environment)) unproven = sqlite3_column_int64(s->count, 3);
        }
        sqlite3_reset(s->count);
        if (rc != SQLITE_DONE) goto done;
        rc = SQLITE_OK;
        if (count >= cap || unproven >= unproven_cap) {
            run(s->rollback);
            return 1;
        }
    }
    if (!rc && !refreshed) {
        sqlite3_bind_text(s->insert, 1, token, -1, SQLITE_STATIC);
        sqlite3_bind_text(s->insert, 2, "wake", -1, SQLITE_STATIC);
        sqlite3_bind_text(s->insert, 3, token, -1, SQLITE_STATIC);
        sqlite3_bind_text(s->insert, 4, type, -1, SQLITE_STATIC);
        sqlite3_bind_text(s->insert, 5, environment, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s->insert, 6, now);
        sqlite3_bind_int64(s->insert, 7, now + expiry_ms);
        sqlite3_bind_null(s->insert, 8);
        sqlite3_bind_int64(s->insert, 9, now);
        sqlite3_bind_text(s->insert, 10, app, -1, SQLITE_STATIC);
        bind_no_device_state(s->insert, 11);
        rc = run(s->insert);
        set_counted(&kept, "wake", type, environment, 0, 0);
    }
    if (!rc) rc = adjust_counts(s, stored, targets, &kept, 1);
    if (!rc) rc = run(s->commit);
done:
    if (rc && !sqlite3_get_autocommit(s->db)) run(s->rollback);
    return rc;
}

static int store_unregister(struct store *s, const char *token) {
    struct counted removed[MAX_TARGETS];
    int targets = 0;
    int rc = run(s->begin);
    if (rc) return rc;
    sqlite3_bind_text(s->remove, 1, token, -1, SQLITE_STATIC);
    sqlite3_bind_text(s->remove, 2, app, -1, SQLITE_STATIC);
    /* The RETURNING rows: what leaves the counters. */
    while ((rc = sqlite3_step(s->remove)) == SQLITE_ROW) {
        if (targets < MAX_TARGETS)
            set_counted(&removed[targets++], (const char *)sqlite3_column_text(s->remove, 0),
                        (const char *)sqlite3_column_text(s->remove, 1), (const char *)sqlite3_column_text(s->remove, 2),
                        sqlite3_column_type(s->remove, 3) != SQLITE_NULL, sqlite3_column_int64(s->remove, 5));
    }
    sqlite3_reset(s->remove);
    rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
    if (!rc) rc = adjust_counts(s, removed, targets, NULL, 0);
    if (!rc) rc = run(s->commit);
    if (rc && !sqlite3_get_autocommit(s->db)) run(s->rollback);
    return rc;
}

/* MARK: - Answers */

static void answer(FCGX_Request *q, int status, const char *reason, const char *extra, const char *body) {
    char out[1536];
    int n = snprintf(out, sizeof out,
        "Status: %d %s\r\nContent-Type: application/json\r\nCache-Control: no-store\r\n"
        "Access-Control-Allow-Origin: *\r\n%sContent-Length: %zu\r\n\r\n%s",
        status, reason, extra ? extra : "", strlen(body), body);
    FCGX_PutStr(out, n < (int)sizeof out ? n : (int)sizeof out - 1, q->out);
}

/* {"error":"<message><name, JSON-escaped, at most 64 characters>"[,"supported":[...]]} */
static void refuse(FCGX_Request *q, const char *message, const struct json_field *name, const char *supported) {
    char body[1024];
    size_t n = (size_t)snprintf(body, sizeof body, "{\"error\":\"%s", message);
    for (size_t i = 0, chars = 0; name && i < name->length && chars < 64; i++) {
        unsigned char c = (unsigned char)name->text[i];
        if ((c & 0xC0) != 0x80) chars++;
        if (c == '"' || c == '\\') n += (size_t)snprintf(body + n, sizeof body - n, "\\%c", c);
        else if (c < 0x20) n += (size_t)snprintf(body + n, sizeof body - n, "\\u%04x", c);
        else body[n++] = (char)c;
    }
    snprintf(body + n, sizeof body - n, "\"%s%s}", supported ? ",\"supported\":" : "", supported ? supported : "");
    answer(q, 400, "Bad Request", NULL, body);
}

static void database_fault(FCGX_Request *q, int rc) {
    int primary = rc & 0xFF;
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED || primary == SQLITE_FULL || primary == SQLITE_IOERR ||
        primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN)
        answer(q, 503, "Service Unavailable", NULL, "{\"error\":\"Service temporarily unavailable; try again later\"}");
    else
        answer(q, 500, "Internal Server Error", NULL, "{\"error\":\"Internal server error\"}");
}

/* application/json with optional parameters, case-insensitive; empty counts as absent. */
static int is_json(const char *type) {
    const char *end = strchr(type, ';');
    if (!end) end = type + strlen(type);
    while (type < end && (*type == ' ' || *type == '\t')) type++;
    while (end > type && (end[-1] == ' ' || end[-1] == '\t')) end--;
    return end == type || (end - type == 16 && strncasecmp(type, "application/json", 16) == 0);
}

static int ends_with(const char *text, size_t length, const char *suffix) {
    size_t n = strlen(suffix);
    return length >= n && memcmp(text + length - n, suffix, n) == 0;
}

static int equals_ignoring_case(const struct json_field *f, const char *word) {
    return f->length == strlen(word) && strncasecmp(f->text, word, f->length) == 0;
}

static void handle(FCGX_Request *q, struct store *store) {
    const char *uri = FCGX_GetParam("DOCUMENT_URI", q->envp);
    if (!uri) uri = FCGX_GetParam("REQUEST_URI", q->envp);
    const char *method = FCGX_GetParam("REQUEST_METHOD", q->envp);
    size_t uri_length = uri ? strcspn(uri, "?") : 0;
    int unregister = 0, health = 0;
    if (uri && ends_with(uri, uri_length, "/wakeup/unregister")) unregister = 1;
    else if (uri && ends_with(uri, uri_length, "/wakeup/health")) health = 1;
    else if (!uri || !ends_with(uri, uri_length, "/wakeup")) {
        answer(q, 404, "Not Found", NULL, "{\"error\":\"Not found\"}");
        return;
    }
    if (health) {
        if (!method || (strcmp(method, "GET") && strcmp(method, "HEAD"))) {
            answer(q, 405, "Method Not Allowed", "Allow: GET\r\n", "{\"error\":\"Method not allowed; use GET\"}");
            return;
        }
        char body[96];
        if (!per_thread) pthread_mutex_lock(&shared_lock);
        int rc = sqlite3_step(store->total);
        long long n = rc == SQLITE_ROW ? sqlite3_column_int64(store->total, 0) : 0;
        sqlite3_reset(store->total);
        if (!per_thread) pthread_mutex_unlock(&shared_lock);
        if (rc != SQLITE_ROW) { database_fault(q, rc); return; }
        snprintf(body, sizeof body, "{\"status\":\"ok\",\"registrations\":%lld}", n);
        answer(q, 200, "OK", NULL, body);
        return;
    }
    if (!method || strcmp(method, "POST")) {
        answer(q, 405, "Method Not Allowed", "Allow: POST\r\n", "{\"error\":\"Method not allowed; use POST\"}");
        return;
    }
    const char *declared = FCGX_GetParam("CONTENT_LENGTH", q->envp);
    unsigned char body[MAX_BODY + 1], scratch[MAX_BODY];
    int length = 0, got;
    if (declared && *declared && atol(declared) > MAX_BODY) length = MAX_BODY + 1;
    while (length <= MAX_BODY && (got = FCGX_GetStr((char *)body + length, MAX_BODY + 1 - length, q->in)) > 0) length += got;
    if (length > MAX_BODY) {
        while (FCGX_GetStr((char *)scratch, sizeof scratch, q->in) > 0) continue;
        answer(q, 413, "Payload Too Large", NULL, "{\"error\":\"Request body is larger than 4096 bytes\"}");
        return;
    }
    const char *content_type = FCGX_GetParam("CONTENT_TYPE", q->envp);
    if (content_type && !is_json(content_type)) {
        answer(q, 415, "Unsupported Media Type", NULL, "{\"error\":\"Content-Type must be application/json\"}");
        return;
    }
    struct json_fields f;
    enum json_result parsed = length ? json_read_fields(body, (size_t)length, scratch, &f) : JSON_NOT_OBJECT;
    if (parsed == JSON_INVALID) { refuse(q, "Request body is not valid JSON", NULL, NULL); return; }
    if (parsed == JSON_NOT_OBJECT) { refuse(q, "Request body must be a JSON object", NULL, NULL); return; }

    const struct json_field *t = &f.push_token;
    if (t->kind == JSON_ABSENT || t->kind == JSON_NULL) { refuse(q, "pushToken is required", NULL, NULL); return; }
    if (t->kind != JSON_STRING) { refuse(q, "pushToken must be a string", NULL, NULL); return; }
    if (t->length < 64) { refuse(q, "pushToken is too short (at least 64 hex characters)", NULL, NULL); return; }
    if (t->length > 200) { refuse(q, "pushToken is too long (at most 200 hex characters)", NULL, NULL); return; }
    char token[201];
    for (size_t i = 0; i < t->length; i++) {
        unsigned char c = (unsigned char)t->text[i];
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) token[i] = (char)c;
        else if (c >= 'A' && c <= 'F') token[i] = (char)(c + 32);
        else { refuse(q, "pushToken must contain hex digits only", NULL, NULL); return; }
    }
    token[t->length] = 0;
    if (t->length % 2) { refuse(q, "pushToken must have an even number of hex digits", NULL, NULL); return; }

    int rc;
    if (unregister) {
        if (!per_thread) pthread_mutex_lock(&shared_lock);
        rc = store_unregister(store, token);
        if (!per_thread) pthread_mutex_unlock(&shared_lock);
    } else {
        const char *type = "charging", *environment = default_environment;
        const struct json_field *a = &f.activity_type, *e = &f.environment;
        if (a->kind == JSON_OTHER) { refuse(q, "activityType must be a string", NULL, NULL); return; }
        if (a->kind == JSON_STRING) {
            if (a->length == 5 && !memcmp(a->text, "debug", 5)) type = "debug";
            else if (!(a->length == 8 && !memcmp(a->text, "charging", 8))) {
                refuse(q, "Unsupported activityType: ", a, "[\"charging\",\"debug\"]");
                return;
            }
        }
        if (e->kind == JSON_OTHER) { refuse(q, "environment must be a string", NULL, NULL); return; }
        if (e->kind == JSON_STRING) {
            if (equals_ignoring_case(e, "production")) environment = "production";
            else if (equals_ignoring_case(e, "sandbox") || equals_ignoring_case(e, "development")) environment = "sandbox";
            else { refuse(q, "Unsupported environment: ", e, "[\"production\",\"sandbox\"]"); return; }
        } else {
            const char *location = FCGX_GetParam("LIVEACTIVITY_APNS_ENVIRONMENT", q->envp);
            if (location && !strcasecmp(location, "production")) environment = "production";
            else if (location && (!strcasecmp(location, "sandbox") || !strcasecmp(location, "development"))) environment = "sandbox";
            else if (location && *location) {
                answer(q, 500, "Internal Server Error", NULL, "{\"error\":\"Internal server error\"}");
                return;
            }
        }
        if (!per_thread) pthread_mutex_lock(&shared_lock);
        rc = store_register(store, token, type, environment);
        if (!per_thread) pthread_mutex_unlock(&shared_lock);
        if (rc == 1) {
            answer(q, 503, "Service Unavailable", NULL, "{\"error\":\"Registration capacity reached; try again later\"}");
            return;
        }
    }
    if (rc) { database_fault(q, rc); return; }
    answer(q, 200, "OK", NULL, "{\"success\":true}");
}

static void *worker(void *unused) {
    (void)unused;
    struct store own, *store = &shared_store;
    if (per_thread) { open_store(&own); store = &own; }
    FCGX_Request q;
    FCGX_InitRequest(&q, listen_socket, 0);
    while (FCGX_Accept_r(&q) >= 0) {
        handle(&q, store);
        FCGX_Finish_r(&q);
    }
    return NULL;
}

int main(int argc, char **argv) {
    const char *socket_path = NULL;
    int threads = 64;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--socket")) socket_path = argv[i + 1];
        else if (!strcmp(argv[i], "--db")) db_path = argv[i + 1];
        else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--connections")) per_thread = !strcmp(argv[i + 1], "per-thread");
    }
    if (!socket_path || !db_path || threads < 1) {
        fprintf(stderr, "usage: reference-responder --socket PATH --db PATH [--threads N] [--connections shared|per-thread]\n");
        return 2;
    }
    if (getenv("LIVEACTIVITY_MAX_REGISTRATIONS")) cap = atoll(getenv("LIVEACTIVITY_MAX_REGISTRATIONS"));
    if (getenv("LIVEACTIVITY_MAX_UNPROVEN")) unproven_cap = atoll(getenv("LIVEACTIVITY_MAX_UNPROVEN"));
    if (getenv("LIVEACTIVITY_EXPIRY_HOURS")) expiry_ms = atoll(getenv("LIVEACTIVITY_EXPIRY_HOURS")) * 3600 * 1000;
    const char *environment = getenv("APNS_ENVIRONMENT");
    if (environment && !strcasecmp(environment, "sandbox")) default_environment = "sandbox";
    if (FCGX_Init() != 0 || (listen_socket = FCGX_OpenSocket(socket_path, 1024)) < 0) {
        fprintf(stderr, "reference-responder: cannot listen on %s\n", socket_path);
        return 1;
    }
    /* libfcgi's own SIGTERM handler only sets a flag the blocked workers never see: stop at once. */
    signal(SIGTERM, SIG_DFL);
    if (!per_thread) open_store(&shared_store);
    pthread_t ids[threads];
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    return 0;
}
