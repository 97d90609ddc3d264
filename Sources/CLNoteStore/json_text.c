// The checker of Spec/format.md D-082: the JSON `document.json` and `manifest.json` are read as.
// A recursive-descent recognizer (recursion stops at LNOTE_JSON_DEPTH_MAX). Member names are
// checked for repeats per object once the object ends: their offsets sorted by their unescaped
// code points (then by offset), equal neighbours a repeat, the first in text order reported.
#include "json_text.h"
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/// Size over speed: the files are small, and every byte here is one an app ships.
#if defined(__clang__)
#  define SMALL __attribute__((minsize))
#else
#  define SMALL
#endif

typedef struct {
    const uint8_t *b;
    size_t n, i;
    int code;
    size_t at;
    size_t *names; // the offsets of the open objects' member names (their opening quote)
    size_t count, room;
} scanner;

SMALL static int fail(scanner *s, int code, size_t at) {
    if (s->code == LNOTE_JSON_OK) {
        s->code = code;
        s->at = at;
    }
    return 0;
}

SMALL static int peek(const scanner *s) {
    return s->i < s->n ? s->b[s->i] : -1;
}

SMALL static void skip_space(scanner *s) {
    while (s->i < s->n && (s->b[s->i] == ' ' || s->b[s->i] == '\t' || s->b[s->i] == '\n' || s->b[s->i] == '\r')) s->i++;
}

SMALL static int hex4(const scanner *s, size_t at, uint32_t *v) {
    *v = 0;
    for (size_t k = 0; k < 4; k++) {
        if (at + k >= s->n) return 0;
        uint8_t c = s->b[at + k];
        uint32_t d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return 0;
        *v = *v << 4 | d;
    }
    return 1;
}

/// One code point of a string at `*p` (inside it): the next scalar, escapes undone, or -1 at its
/// closing quote, -2 on anything D-082 refuses (with the reason). Advances `*p`.
SMALL static int64_t scalar(scanner *s, size_t *p) {
    size_t i = *p;
    if (i >= s->n) return fail(s, LNOTE_JSON_STRING_END, i), -2;
    uint8_t c = s->b[i];
    if (c == '"') {
        *p = i + 1;
        return -1;
    }
    if (c < 0x20) return fail(s, LNOTE_JSON_CONTROL, i), -2;
    if (c == '\\') {
        if (i + 1 >= s->n) return fail(s, LNOTE_JSON_STRING_END, i), -2;
        uint8_t e = s->b[i + 1];
        *p = i + 2;
        switch (e) {
        case '"':
        case '\\':
        case '/':
            return e;
        case 'b':
            return 0x08;
        case 'f':
            return 0x0C;
        case 'n':
            return 0x0A;
        case 'r':
            return 0x0D;
        case 't':
            return 0x09;
        case 'u':
            break;
        default:
            return fail(s, LNOTE_JSON_ESCAPE, i), -2;
        }
        uint32_t u, low;
        if (!hex4(s, i + 2, &u)) return fail(s, LNOTE_JSON_HEX, i), -2;
        *p = i + 6;
        if (u >= 0xDC00 && u <= 0xDFFF) return fail(s, LNOTE_JSON_LOW_ALONE, i), -2;
        if (u < 0xD800 || u > 0xDBFF) return u;
        if (i + 7 >= s->n || s->b[i + 6] != '\\' || s->b[i + 7] != 'u' || !hex4(s, i + 8, &low) || low < 0xDC00 ||
            low > 0xDFFF)
            return fail(s, LNOTE_JSON_HIGH_ALONE, i), -2;
        *p = i + 12;
        return 0x10000 + ((int64_t)(u - 0xD800) << 10) + (low - 0xDC00);
    }
    if (c < 0x80) {
        *p = i + 1;
        return c;
    }
    // Unicode's table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF.
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c == 0xE0) {
        len = 3;
        lo = 0xA0;
    } else if (c == 0xED) {
        len = 3;
        hi = 0x9F;
    } else if (c >= 0xE1 && c <= 0xEF)
        len = 3;
    else if (c == 0xF0) {
        len = 4;
        lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3)
        len = 4;
    else if (c == 0xF4) {
        len = 4;
        hi = 0x8F;
    } else
        return fail(s, LNOTE_JSON_UTF8, i), -2;
    int64_t v = c & (0x7F >> len);
    for (size_t k = 1; k < len; k++) {
        if (i + k >= s->n) return fail(s, LNOTE_JSON_UTF8, i), -2;
        uint8_t t = s->b[i + k];
        if (t < (k == 1 ? lo : 0x80) || t > (k == 1 ? hi : 0xBF)) return fail(s, LNOTE_JSON_UTF8, i), -2;
        v = v << 6 | (t & 0x3F);
    }
    *p = i + len;
    return v;
}

SMALL static inline __attribute__((always_inline)) int string(scanner *s) {
    size_t p = s->i + 1;
    int64_t v;
    do {
        // Printable ASCII other than the quote and the backslash is text as it stands: the run
        // is passed over without `scalar`, which decides everything else (a long document.json
        // is mostly such runs: ids, times, names).
        while (p < s->n && s->b[p] >= 0x20 && s->b[p] < 0x80 && s->b[p] != '"' && s->b[p] != '\\') p++;
    } while ((v = scalar(s, &p)) >= 0);
    s->i = p;
    return v == -1;
}

/// The scanner the sort compares with (qsort has no context argument; one per thread).
static _Thread_local scanner *sorting;

/// The order of two well-formed member names (at their opening quotes) by their code points,
/// escapes undone: negative, 0 (the same name) or positive.
SMALL static int name_order(const scanner *s, size_t x, size_t y) {
    // Where neither name has an escape, their bytes decide: UTF-8's byte order is the order
    // of its code points, and a name that ends first (its quote) comes first.
    size_t i = x + 1, j = y + 1;
    while (s->b[i] == s->b[j] && s->b[i] != '"' && s->b[i] != '\\') i++, j++;
    if (s->b[i] != '\\' && s->b[j] != '\\') {
        if (s->b[i] == s->b[j]) return 0;
        if (s->b[i] == '"' || s->b[j] == '"') return s->b[i] == '"' ? -1 : 1;
        return s->b[i] < s->b[j] ? -1 : 1;
    }
    scanner *t = (scanner *)s; // names are well formed here: `scalar` never fails on them
    size_t a = x + 1, b = y + 1;
    for (;;) {
        int64_t u = scalar(t, &a), v = scalar(t, &b);
        if (u != v) return u < v ? -1 : 1;
        if (u < 0) return 0;
    }
}

/// Two member names by their code points, escapes undone; equal names by offset.
SMALL static int compare_names(const void *x, const void *y) {
    size_t p = *(const size_t *)x, q = *(const size_t *)y;
    int order = name_order(sorting, p, q);
    if (order != 0) return order;
    return p < q ? -1 : p > q;
}

SMALL static int value(scanner *s, int depth);

SMALL static int object(scanner *s, int depth) {
    if (depth > LNOTE_JSON_DEPTH_MAX) return fail(s, LNOTE_JSON_DEPTH, s->i);
    size_t first = s->count;
    s->i++;
    skip_space(s);
    if (peek(s) == '}') {
        s->i++;
        return 1;
    }
    for (;;) {
        if (peek(s) != '"') return fail(s, LNOTE_JSON_NAME, s->i);
        if (s->count == s->room) {
            size_t room = s->room ? s->room * 2 : 64;
            size_t *grown = realloc(s->names, room * sizeof *grown);
            if (!grown) return fail(s, LNOTE_JSON_MEMORY, s->i);
            s->names = grown;
            s->room = room;
        }
        s->names[s->count++] = s->i;
        if (!string(s)) return 0;
        skip_space(s);
        if (peek(s) != ':') return fail(s, LNOTE_JSON_COLON, s->i);
        s->i++;
        skip_space(s);
        if (!value(s, depth)) return 0;
        skip_space(s);
        int c = peek(s);
        if (c == ',') {
            s->i++;
            skip_space(s);
            continue;
        }
        if (c != '}') return fail(s, LNOTE_JSON_OBJECT_NEXT, s->i);
        s->i++;
        break;
    }
    size_t *names = s->names + first, k = s->count - first, repeat = SIZE_MAX;
    sorting = s; // names are well formed here: the comparison never fails
    qsort(names, k, sizeof *names, compare_names);
    sorting = NULL;
    for (size_t j = 1; j < k; j++) {
        if (name_order(s, names[j - 1], names[j]) == 0 && names[j] < repeat) repeat = names[j];
    }
    s->count = first;
    return repeat == SIZE_MAX ? 1 : fail(s, LNOTE_JSON_TWICE, repeat);
}

SMALL static int array(scanner *s, int depth) {
    if (depth > LNOTE_JSON_DEPTH_MAX) return fail(s, LNOTE_JSON_DEPTH, s->i);
    s->i++;
    skip_space(s);
    if (peek(s) == ']') {
        s->i++;
        return 1;
    }
    for (;;) {
        if (!value(s, depth)) return 0;
        skip_space(s);
        int c = peek(s);
        if (c == ',') {
            s->i++;
            skip_space(s);
            continue;
        }
        if (c == ']') {
            s->i++;
            return 1;
        }
        return fail(s, LNOTE_JSON_ARRAY_NEXT, s->i);
    }
}

SMALL static size_t digits(scanner *s) {
    size_t start = s->i;
    while (s->i < s->n && s->b[s->i] >= '0' && s->b[s->i] <= '9') s->i++;
    return s->i - start;
}

SMALL static int number(scanner *s) {
    size_t start = s->i;
    if (peek(s) == '-') s->i++;
    if (peek(s) == '0') {
        s->i++;
        if (peek(s) >= '0' && peek(s) <= '9') return fail(s, LNOTE_JSON_LEADING_ZERO, start);
    } else if (!digits(s))
        return fail(s, LNOTE_JSON_DIGIT, s->i);
    if (peek(s) == '.') {
        s->i++;
        if (!digits(s)) return fail(s, LNOTE_JSON_DIGIT, s->i);
    }
    if (peek(s) == 'e' || peek(s) == 'E') {
        s->i++;
        if (peek(s) == '+' || peek(s) == '-') s->i++;
        if (!digits(s)) return fail(s, LNOTE_JSON_DIGIT, s->i);
    }
    return 1;
}

SMALL static inline __attribute__((always_inline)) int literal(scanner *s, const char *word) {
    size_t start = s->i;
    for (; *word; word++, s->i++) {
        if (peek(s) != (uint8_t)*word) return fail(s, LNOTE_JSON_NOT_VALUE, start);
    }
    return 1;
}

SMALL static int value(scanner *s, int depth) {
    int c = peek(s);
    switch (c) {
    case -1:
        return fail(s, LNOTE_JSON_NO_VALUE, s->i);
    case '{':
        return object(s, depth + 1);
    case '[':
        return array(s, depth + 1);
    case '"':
        return string(s);
    case 't':
        return literal(s, "true");
    case 'f':
        return literal(s, "false");
    case 'n':
        return literal(s, "null");
    default:
        if (c == '-' || (c >= '0' && c <= '9')) return number(s);
        return fail(s, LNOTE_JSON_NOT_VALUE, s->i);
    }
}

SMALL int lnote_json_check(const uint8_t *b, size_t n, size_t *at) {
    scanner s = {b, n, 0, LNOTE_JSON_OK, 0, NULL, 0, 0};
    if (n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) s.i = 3;
    size_t start = s.i;
    skip_space(&s);
    if (value(&s, 0)) {
        skip_space(&s);
        if (s.i != n) fail(&s, LNOTE_JSON_MORE, s.i);
    }
    free(s.names);
    *at = s.code == LNOTE_JSON_OK ? start : s.at;
    return s.code;
}

const char *lnote_json_reason(int code) {
    switch (code) {
    case LNOTE_JSON_OK:
        return "JSON as D-082 reads it";
    case LNOTE_JSON_NO_VALUE:
        return "the text ends where a value should start";
    case LNOTE_JSON_MORE:
        return "more follows the value";
    case LNOTE_JSON_NAME:
        return "an object's member must start with its name, a string";
    case LNOTE_JSON_COLON:
        return "a ':' must follow an object member's name";
    case LNOTE_JSON_OBJECT_NEXT:
        return "a ',' or '}' must follow an object's member";
    case LNOTE_JSON_ARRAY_NEXT:
        return "a ',' or ']' must follow an array's element";
    case LNOTE_JSON_DEPTH:
        return "arrays and objects nest more than 64 deep";
    case LNOTE_JSON_LEADING_ZERO:
        return "a number must not start with a 0 followed by a digit";
    case LNOTE_JSON_DIGIT:
        return "a number needs a digit here";
    case LNOTE_JSON_STRING_END:
        return "the text ends inside a string";
    case LNOTE_JSON_CONTROL:
        return "a control character in a string must be escaped";
    case LNOTE_JSON_ESCAPE:
        return "not a JSON escape";
    case LNOTE_JSON_HEX:
        return "a \\u escape needs four hex digits";
    case LNOTE_JSON_LOW_ALONE:
        return "a low surrogate escape without a high one before it";
    case LNOTE_JSON_HIGH_ALONE:
        return "a high surrogate escape without a low one after it";
    case LNOTE_JSON_UTF8:
        return "not UTF-8";
    case LNOTE_JSON_TWICE:
        return "a name appears twice in one object";
    case LNOTE_JSON_MEMORY:
        return "no memory to check the object's names";
    default:
        return "not the start of a JSON value";
    }
}

/// Finds the first number at or after `from` (not inside a string) in a checked text, skipping
/// strings: 1 with it at `b[*start ..< *end]`, or 0 when none is left.
SMALL static int next_number(const uint8_t *b, size_t n, size_t from, size_t *start, size_t *end) {
    for (size_t i = from; i < n; i++) {
        uint8_t c = b[i];
        if (c == '"') { // skip the string, escapes included
            for (i++; i < n && b[i] != '"'; i++) {
                if (b[i] == '\\') i++;
            }
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t j = i + 1;
            while (j < n && ((b[j] >= '0' && b[j] <= '9') || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' ||
                             b[j] == '-'))
                j++;
            *start = i;
            *end = j;
            return 1;
        }
    }
    return 0;
}

/// 0 when the number `b[0 ..< n]` (valid JSON) is a finite double or an exact zero, 1 when its
/// nearest double is 0 although a digit before its exponent is not, 2 when it is infinite.
/// strtod decides (it rounds to nearest), given the text with the locale's radix character
/// for the '.'.
SMALL static int number_range(const uint8_t *b, size_t n) {
    char *text = malloc(n + 1);
    if (!text) return 0;
    char radix = *localeconv()->decimal_point;
    int nonzero = 0, exponent = 0;
    for (size_t i = 0; i < n; i++) {
        char c = (char)b[i];
        if (c == 'e' || c == 'E') exponent = 1;
        if (!exponent && c >= '1' && c <= '9') nonzero = 1;
        text[i] = c == '.' ? radix : c;
    }
    text[n] = 0;
    double value = strtod(text, NULL);
    free(text);
    if (!nonzero) return 0;
    if (value == 0) return 1;
    return isinf(value) ? 2 : 0;
}

SMALL size_t lnote_json_readable(const uint8_t *b, size_t n, uint8_t *out) {
    size_t o = 0, from = 0, start, end;
    while (next_number(b, n, from, &start, &end)) {
        int wide = end - start > 300; // only a long number or one with an exponent can leave the range
        for (size_t k = start; k < end && !wide; k++) wide = b[k] == 'e' || b[k] == 'E';
        int range = wide ? number_range(b + start, end - start) : 0;
        memcpy(out + o, b + from, (range ? start : end) - from);
        o += (range ? start : end) - from;
        if (range) {
            const char *with = range == 1 ? (b[start] == '-' ? "-0" : "0") : (b[start] == '-' ? "-1e308" : "1e308");
            size_t w = strlen(with);
            memcpy(out + o, with, w);
            o += w;
        }
        from = end;
    }
    memcpy(out + o, b + from, n - from);
    return o + n - from;
}
