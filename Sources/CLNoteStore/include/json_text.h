#ifndef LNOTE_JSON_TEXT_H
#define LNOTE_JSON_TEXT_H
#include <stddef.h>
#include <stdint.h>
/// Why a text is not JSON as Spec/format.md D-082 reads `document.json` and `manifest.json`.
enum {
    LNOTE_JSON_OK = 0,
    LNOTE_JSON_NO_VALUE,     // the text ends where a value should start
    LNOTE_JSON_MORE,         // more follows the value
    LNOTE_JSON_NOT_VALUE,    // not the start of a JSON value
    LNOTE_JSON_NAME,         // an object's member must start with its name, a string
    LNOTE_JSON_COLON,        // a ':' must follow a member's name
    LNOTE_JSON_OBJECT_NEXT,  // a ',' or '}' must follow an object's member
    LNOTE_JSON_ARRAY_NEXT,   // a ',' or ']' must follow an array's element
    LNOTE_JSON_DEPTH,        // arrays and objects nest more than 64 deep
    LNOTE_JSON_LEADING_ZERO, // a number must not start with a 0 followed by a digit
    LNOTE_JSON_DIGIT,        // a number needs a digit here
    LNOTE_JSON_STRING_END,   // the text ends inside a string
    LNOTE_JSON_CONTROL,      // a control character in a string must be escaped
    LNOTE_JSON_ESCAPE,       // not a JSON escape
    LNOTE_JSON_HEX,          // a \u escape needs four hex digits
    LNOTE_JSON_LOW_ALONE,    // a low surrogate escape without a high one before it
    LNOTE_JSON_HIGH_ALONE,   // a high surrogate escape without a low one after it
    LNOTE_JSON_UTF8,         // not UTF-8
    LNOTE_JSON_TWICE,        // a name appears twice in one object
    LNOTE_JSON_MEMORY,       // no memory for the names of the objects
};
/// Arrays and objects nest at most this deep (the top-level value's brackets count 1).
enum { LNOTE_JSON_DEPTH_MAX = 64 };
/// Checks the `n` bytes at `b` against D-082 (RFC 8259 without extensions, UTF-8 with one
/// byte-order mark ignored, one value, no name twice in one object after escapes are undone,
/// nesting at most LNOTE_JSON_DEPTH_MAX deep; a number's size is never checked). Returns
/// LNOTE_JSON_OK and sets `*at` to where the value's text starts (3 after a byte-order mark,
/// else 0), or the reason with `*at` the byte where it was seen. Reads only `b[0 ..< n]`.
int lnote_json_check(const uint8_t *b, size_t n, size_t *at);
/// Copies a text `lnote_json_check` accepted to `out` (room for `n` bytes) for a decoder that
/// refuses numbers outside a double's range, each number's value kept as D-082 reads it (the
/// nearest double): one whose nearest double is 0 but whose digits are not is written `0`
/// (`-0`), an infinite one `1e308` (`-1e308`); nothing else changes. Returns the length.
size_t lnote_json_readable(const uint8_t *b, size_t n, uint8_t *out);
/// The reason `code` stands for, as a sentence without its end ("not UTF-8").
const char *lnote_json_reason(int code);
#endif
