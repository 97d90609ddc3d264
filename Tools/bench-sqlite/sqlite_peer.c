/*
 * sqlite_peer: the SQLite side of `lnote bench`, a child process driven over stdin/stdout.
 *
 * It links the system SQLite library and stores the same stroke bytes the bench gives it,
 * one BLOB per row, in a WAL-mode database, timing each operation itself with
 * clock_gettime(CLOCK_MONOTONIC) so that pipe round trips are not measured.
 *
 * Schema: strokes(seq INTEGER PRIMARY KEY, data BLOB NOT NULL): one row per stroke, the
 * BLOB being the stroke's encoded bytes, rows read back in seq order.
 *
 * Protocol: one command per line on stdin, one reply line on stdout ("ok ..." or "err ...").
 *   version                        -> ok <sqlite version>
 *   load FILE                      -> ok <count>     FILE: repeated [u32 little-endian length][bytes]
 *   open DB SYNC                   -> ok             SYNC: FULL | NORMAL | OFF; journal_mode=WAL
 *   save FIRST COUNT               -> ok <ns>...     one INSERT per transaction (autocommit), blob
 *                                                    (FIRST+i) mod count, one latency per insert
 *   batch FIRST COUNT              -> ok <ns>        COUNT inserts in one BEGIN..COMMIT
 *   checkpoint                     -> ok <ns>        PRAGMA wal_checkpoint(TRUNCATE)
 *   close                          -> ok             closes the write connection
 *   read DB                        -> ok <ns> <rows> <bytes>  new connection, SELECT data ORDER BY
 *                                                    seq, each BLOB copied out, connection closed
 *   io                             -> ok <wchar> <write_bytes>  from /proc/self/io
 *   rss                            -> ok <ru_maxrss KiB>
 *   quit
 *
 * What it syncs: with synchronous=FULL in WAL mode SQLite syncs the WAL file at every commit
 * (fdatasync on Linux builds with HAVE_FDATASYNC, fsync otherwise) and the database file at
 * each checkpoint; with NORMAL the WAL is synced only at checkpoints (a commit survives an app
 * crash, not a power loss). The default auto-checkpoint (1000 pages) stays on.
 */
#define _GNU_SOURCE
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static unsigned char **blobs;
static int *lengths;
static int blob_count;
static sqlite3 *db;
static sqlite3_stmt *insert_stmt;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void reply_err(const char *what) {
    printf("err %s: %s\n", what, db ? sqlite3_errmsg(db) : "no database");
    fflush(stdout);
}

static int exec(const char *sql) {
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        printf("err %s: %s\n", sql, msg ? msg : "?");
        fflush(stdout);
        sqlite3_free(msg);
        return 0;
    }
    return 1;
}

static int load(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    int cap = 256;
    blobs = malloc(sizeof *blobs * cap);
    lengths = malloc(sizeof *lengths * cap);
    blob_count = 0;
    for (;;) {
        unsigned char h[4];
        if (fread(h, 1, 4, f) != 4) break;
        uint32_t n = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
        if (n > (64u << 20)) { fclose(f); return -1; }
        unsigned char *b = malloc(n ? n : 1);
        if (!b || fread(b, 1, n, f) != n) { fclose(f); return -1; }
        if (blob_count == cap) {
            cap *= 2;
            blobs = realloc(blobs, sizeof *blobs * cap);
            lengths = realloc(lengths, sizeof *lengths * cap);
        }
        blobs[blob_count] = b;
        lengths[blob_count] = (int)n;
        blob_count++;
    }
    fclose(f);
    return blob_count;
}

static int insert(long i) {
    int k = (int)(i % blob_count);
    sqlite3_bind_blob(insert_stmt, 1, blobs[k], lengths[k], SQLITE_STATIC);
    int rc = sqlite3_step(insert_stmt);
    sqlite3_reset(insert_stmt);
    return rc == SQLITE_DONE;
}

static void close_db(void) {
    if (insert_stmt) sqlite3_finalize(insert_stmt);
    insert_stmt = NULL;
    if (db) sqlite3_close(db);
    db = NULL;
}

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char cmd[32] = {0}, arg[2048] = {0}, arg2[64] = {0};
        int fields = sscanf(line, "%31s %2047s %63s", cmd, arg, arg2);
        if (fields < 1) continue;
        if (!strcmp(cmd, "quit")) break;
        if (!strcmp(cmd, "version")) {
            printf("ok %s\n", sqlite3_libversion());
        } else if (!strcmp(cmd, "load")) {
            int n = load(arg);
            if (n <= 0) printf("err cannot load %s\n", arg); else printf("ok %d\n", n);
        } else if (!strcmp(cmd, "open")) {
            close_db();
            char pragma[128];
            if (sqlite3_open(arg, &db) != SQLITE_OK) { reply_err("open"); continue; }
            snprintf(pragma, sizeof pragma, "PRAGMA synchronous=%s", arg2);
            if (!exec("PRAGMA journal_mode=WAL") || !exec(pragma)
                || !exec("CREATE TABLE IF NOT EXISTS strokes(seq INTEGER PRIMARY KEY, data BLOB NOT NULL)")) continue;
            if (sqlite3_prepare_v2(db, "INSERT INTO strokes(data) VALUES (?1)", -1, &insert_stmt, NULL) != SQLITE_OK) {
                reply_err("prepare");
                continue;
            }
            printf("ok\n");
        } else if (!strcmp(cmd, "save") || !strcmp(cmd, "batch")) {
            long first = atol(arg), count = atol(arg2);
            if (!db || !insert_stmt || blob_count == 0 || count <= 0) { printf("err not ready\n"); fflush(stdout); continue; }
            if (!strcmp(cmd, "save")) {
                int64_t *ns = malloc(sizeof *ns * count);
                int ok = 1;
                for (long i = 0; i < count && ok; i++) {
                    int64_t t0 = now_ns();
                    ok = insert(first + i);
                    ns[i] = now_ns() - t0;
                }
                if (!ok) { reply_err("insert"); free(ns); continue; }
                printf("ok");
                for (long i = 0; i < count; i++) printf(" %lld", (long long)ns[i]);
                printf("\n");
                free(ns);
            } else {
                int64_t t0 = now_ns();
                int ok = exec("BEGIN");
                for (long i = 0; i < count && ok; i++) ok = insert(first + i);
                if (!ok) { reply_err("insert"); exec("ROLLBACK"); continue; }
                if (!exec("COMMIT")) continue;
                printf("ok %lld\n", (long long)(now_ns() - t0));
            }
        } else if (!strcmp(cmd, "checkpoint")) {
            int64_t t0 = now_ns();
            if (!db || !exec("PRAGMA wal_checkpoint(TRUNCATE)")) { if (!db) printf("err no database\n"); fflush(stdout); continue; }
            printf("ok %lld\n", (long long)(now_ns() - t0));
        } else if (!strcmp(cmd, "close")) {
            close_db();
            printf("ok\n");
        } else if (!strcmp(cmd, "read")) {
            int64_t t0 = now_ns();
            sqlite3 *r = NULL;
            sqlite3_stmt *q = NULL;
            if (sqlite3_open_v2(arg, &r, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK
                || sqlite3_prepare_v2(r, "SELECT data FROM strokes ORDER BY seq", -1, &q, NULL) != SQLITE_OK) {
                printf("err read: %s\n", r ? sqlite3_errmsg(r) : "open");
                sqlite3_close(r);
                fflush(stdout);
                continue;
            }
            long rows = 0, bytes = 0, cap = 1024;
            unsigned char **out = malloc(sizeof *out * cap);
            while (sqlite3_step(q) == SQLITE_ROW) {
                int n = sqlite3_column_bytes(q, 0);
                const void *p = sqlite3_column_blob(q, 0);
                if (rows == cap) { cap *= 2; out = realloc(out, sizeof *out * cap); }
                out[rows] = malloc(n ? n : 1);
                memcpy(out[rows], p, n);
                rows++;
                bytes += n;
            }
            sqlite3_finalize(q);
            sqlite3_close(r);
            int64_t ns = now_ns() - t0;
            for (long i = 0; i < rows; i++) free(out[i]);
            free(out);
            printf("ok %lld %ld %ld\n", (long long)ns, rows, bytes);
        } else if (!strcmp(cmd, "io")) {
            long long wchar = -1, wbytes = -1;
            FILE *f = fopen("/proc/self/io", "r");
            if (f) {
                char l[256];
                while (fgets(l, sizeof l, f)) {
                    sscanf(l, "wchar: %lld", &wchar);
                    sscanf(l, "write_bytes: %lld", &wbytes);
                }
                fclose(f);
            }
            printf("ok %lld %lld\n", wchar, wbytes);
        } else if (!strcmp(cmd, "rss")) {
            struct rusage u;
            getrusage(RUSAGE_SELF, &u);
            printf("ok %ld\n", u.ru_maxrss);
        } else {
            printf("err unknown command %s\n", cmd);
        }
        fflush(stdout);
    }
    close_db();
    return 0;
}
