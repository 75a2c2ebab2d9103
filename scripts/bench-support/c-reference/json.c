/* See json.h. Recursive descent over the body; strings are decoded only where kept. */
#include "json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 512

struct reader {
    const unsigned char *p, *end;
    unsigned char *out; /* where the next kept string is decoded */
    int depth;
};

static int value(struct reader *r);

static void skip_ws(struct reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t')) r->p++;
}

static int peek(struct reader *r) { return r->p < r->end ? *r->p : -1; }

static int expect(struct reader *r, unsigned char c) {
    if (peek(r) != c) return -1;
    r->p++;
    return 0;
}

static int literal(struct reader *r, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) return -1;
    r->p += n;
    return 0;
}

static int hex4(struct reader *r, uint32_t *v) {
    if (r->end - r->p < 4) return -1;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = *r->p++;
        uint32_t d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        *v = *v << 4 | d;
    }
    return 0;
}

static void put_utf8(struct reader *r, uint32_t cp, int keep) {
    if (!keep) return;
    if (cp < 0x80) *r->out++ = (unsigned char)cp;
    else if (cp < 0x800) { *r->out++ = 0xC0 | cp >> 6; *r->out++ = 0x80 | (cp & 0x3F); }
    else if (cp < 0x10000) { *r->out++ = 0xE0 | cp >> 12; *r->out++ = 0x80 | (cp >> 6 & 0x3F); *r->out++ = 0x80 | (cp & 0x3F); }
    else {
        *r->out++ = 0xF0 | cp >> 18; *r->out++ = 0x80 | (cp >> 12 & 0x3F);
        *r->out++ = 0x80 | (cp >> 6 & 0x3F); *r->out++ = 0x80 | (cp & 0x3F);
    }
}

/* Length of the well-formed UTF-8 sequence at p (Unicode table 3-7), or 0. */
static int utf8_sequence(const unsigned char *p, const unsigned char *end) {
    unsigned char lead = *p, low = 0x80, high = 0xBF;
    int n;
    if (lead >= 0xC2 && lead <= 0xDF) n = 2;
    else if (lead == 0xE0) { n = 3; low = 0xA0; }
    else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) n = 3;
    else if (lead == 0xED) { n = 3; high = 0x9F; }
    else if (lead == 0xF0) { n = 4; low = 0x90; }
    else if (lead >= 0xF1 && lead <= 0xF3) n = 4;
    else if (lead == 0xF4) { n = 4; high = 0x8F; }
    else return 0;
    if (end - p < n || p[1] < low || p[1] > high) return 0;
    for (int i = 2; i < n; i++) if ((p[i] & 0xC0) != 0x80) return 0;
    return n;
}

/* A string at its opening quote; decoded into r->out when `keep` (start and length returned). */
static int string(struct reader *r, int keep, const char **text, size_t *length) {
    unsigned char *start = r->out;
    r->p++;
    for (;;) {
        if (r->p >= r->end) return -1;
        unsigned char c = *r->p;
        if (c == '"') {
            r->p++;
            if (keep) { *text = (const char *)start; *length = (size_t)(r->out - start); }
            return 0;
        } else if (c == '\\') {
            r->p++;
            if (r->p >= r->end) return -1;
            unsigned char e = *r->p++;
            uint32_t cp;
            switch (e) {
            case '"': case '\\': case '/': cp = e; break;
            case 'b': cp = 8; break;
            case 'f': cp = 12; break;
            case 'n': cp = 10; break;
            case 'r': cp = 13; break;
            case 't': cp = 9; break;
            case 'u':
                if (hex4(r, &cp)) return -1;
                if (cp >= 0xD800 && cp < 0xDC00) {
                    uint32_t lo;
                    if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u') return -1;
                    r->p += 2;
                    if (hex4(r, &lo) || lo < 0xDC00 || lo >= 0xE000) return -1;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else if (cp >= 0xDC00 && cp < 0xE000) {
                    return -1;
                }
                break;
            default: return -1;
            }
            put_utf8(r, cp, keep);
        } else if (c < 0x20) {
            return -1;
        } else if (c < 0x80) {
            if (keep) *r->out++ = c;
            r->p++;
        } else {
            int n = utf8_sequence(r->p, r->end);
            if (!n) return -1;
            if (keep) { memcpy(r->out, r->p, (size_t)n); r->out += n; }
            r->p += n;
        }
    }
}

static int digits(struct reader *r) {
    const unsigned char *start = r->p;
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
    return (int)(r->p - start);
}

/* -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, finite as a double. */
static int number(struct reader *r) {
    const unsigned char *start = r->p;
    if (peek(r) == '-') r->p++;
    if (peek(r) == '0') r->p++;
    else if (digits(r) == 0) return -1;
    if (peek(r) == '.') { r->p++; if (digits(r) == 0) return -1; }
    if (peek(r) == 'e' || peek(r) == 'E') {
        r->p++;
        if (peek(r) == '+' || peek(r) == '-') r->p++;
        if (digits(r) == 0) return -1;
    }
    char text[4200];
    size_t n = (size_t)(r->p - start);
    if (n >= sizeof text) return -1;
    memcpy(text, start, n);
    text[n] = 0;
    return isfinite(strtod(text, NULL)) ? 0 : -1;
}

static int enter(struct reader *r) {
    if (++r->depth > MAX_DEPTH) return -1;
    r->p++;
    return 0;
}

/* An object at its '{'; with `fields`, the top level: the three members the API reads kept. */
static int object(struct reader *r, struct json_fields *fields) {
    if (enter(r)) return -1;
    skip_ws(r);
    if (peek(r) == '}') { r->p++; r->depth--; return 0; }
    for (;;) {
        const char *name = NULL;
        size_t name_length = 0;
        if (peek(r) != '"' || string(r, fields != NULL, &name, &name_length)) return -1;
        skip_ws(r);
        if (expect(r, ':')) return -1;
        skip_ws(r);
        struct json_field *field = NULL;
        if (fields) {
            r->out -= name_length; /* the name is compared, not kept */
            if (name_length == 9 && memcmp(name, "pushToken", 9) == 0) field = &fields->push_token;
            else if (name_length == 12 && memcmp(name, "activityType", 12) == 0) field = &fields->activity_type;
            else if (name_length == 11 && memcmp(name, "environment", 11) == 0) field = &fields->environment;
        }
        if (field && peek(r) == '"') {
            if (string(r, 1, &field->text, &field->length)) return -1;
            field->kind = JSON_STRING;
        } else if (field && peek(r) == 'n') {
            if (literal(r, "null")) return -1;
            field->kind = JSON_NULL;
        } else {
            if (value(r)) return -1;
            if (field) field->kind = JSON_OTHER;
        }
        skip_ws(r);
        if (peek(r) == ',') { r->p++; skip_ws(r); continue; }
        if (expect(r, '}')) return -1;
        r->depth--;
        return 0;
    }
}

static int array(struct reader *r) {
    if (enter(r)) return -1;
    skip_ws(r);
    if (peek(r) == ']') { r->p++; r->depth--; return 0; }
    for (;;) {
        if (value(r)) return -1;
        skip_ws(r);
        if (peek(r) == ',') { r->p++; skip_ws(r); continue; }
        if (expect(r, ']')) return -1;
        r->depth--;
        return 0;
    }
}

static int value(struct reader *r) {
    switch (peek(r)) {
    case '{': return object(r, NULL);
    case '[': return array(r);
    case '"': return string(r, 0, NULL, NULL);
    case 't': return literal(r, "true");
    case 'f': return literal(r, "false");
    case 'n': return literal(r, "null");
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        return number(r);
    default: return -1;
    }
}

enum json_result json_read_fields(const unsigned char *body, size_t length, unsigned char *scratch,
    struct json_fields *fields) {
    struct reader r = {.p = body, .end = body + length, .out = scratch, .depth = 0};
    memset(fields, 0, sizeof *fields);
    if (length >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF) r.p += 3;
    skip_ws(&r);
    int is_object = peek(&r) == '{';
    if (is_object ? object(&r, fields) : value(&r)) return JSON_INVALID;
    skip_ws(&r);
    if (r.p != r.end) return JSON_INVALID;
    return is_object ? JSON_OBJECT : JSON_NOT_OBJECT;
}
