#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type liveactivity_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic; Swift cannot call it. Turns one on/off option of `op` on.
static inline int liveactivity_sqlite_db_config_on(sqlite3 *db, int op) {
    return sqlite3_db_config(db, op, 1, (int *)0);
}
