// The system SQLite (libsqlite3 on Linux: Debian package libsqlite3-dev; the SDK's on Apple
// platforms). Only LNoteSQLite imports this; the engine never links SQLite.
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: SQLite copies the bound bytes.
static inline sqlite3_destructor_type lnote_sqlite_transient(void) { return SQLITE_TRANSIENT; }
