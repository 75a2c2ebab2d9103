/* The C reference responder's strict JSON reader (RFC 8259), the same rules as the Swift
 * JSONReader: the whole body validated, nesting up to 512, UTF-8 checked, no control characters
 * or lone surrogates in strings, numbers finite as doubles, a UTF-8 byte order mark skipped. Of
 * the top-level object it keeps only the three members the API reads (the last of duplicates). */
#ifndef REFERENCE_JSON_H
#define REFERENCE_JSON_H

#include <stddef.h>

enum json_kind { JSON_ABSENT, JSON_NULL, JSON_STRING, JSON_OTHER };

struct json_field {
    enum json_kind kind;
    const char *text; /* decoded UTF-8 when kind is JSON_STRING */
    size_t length;
};

struct json_fields {
    struct json_field push_token, activity_type, environment;
};

enum json_result { JSON_OBJECT, JSON_INVALID, JSON_NOT_OBJECT };

/* Reads `body`; decoded strings go to `scratch`, which must hold `length` bytes. */
enum json_result json_read_fields(const unsigned char *body, size_t length, unsigned char *scratch,
    struct json_fields *fields);

#endif
