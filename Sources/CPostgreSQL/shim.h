// libpq is not linked: PostgresClient loads libpq.so.5 at run time (PostgresLibrary), when
// LIVEACTIVITY_DB names a PostgreSQL database, so a program on SQLite never maps libpq and the
// libraries it brings (libssl, libcrypto, GSSAPI, LDAP). Every function PostgresClient calls is
// a pointer in one table, and a static inline wrapper of libpq's own name and prototype calls
// through it, so the Swift code reads as it would over the linked library.
#include <dlfcn.h>

// The functions called: one line each, in the table, the binding and the wrappers below.
#define LIVEACTIVITY_PQ_FUNCTIONS(X) \
    X(PQbackendPID) X(PQclear) X(PQcmdStatus) X(PQcmdTuples) X(PQconndefaults) X(PQconnectPoll) \
    X(PQconnectStart) X(PQconnectStartParams) X(PQconnectionNeedsPassword) X(PQconninfoFree) \
    X(PQconninfoParse) X(PQconsumeInput) X(PQenterPipelineMode) X(PQerrorMessage) X(PQexitPipelineMode) \
    X(PQfinish) X(PQflush) X(PQfreemem) X(PQgetResult) X(PQgetisnull) X(PQgetvalue) X(PQhost) X(PQisBusy) \
    X(PQnfields) X(PQntuples) X(PQpipelineSync) X(PQresultErrorField) X(PQresultErrorMessage) \
    X(PQresultStatus) X(PQsendPrepare) X(PQsendQuery) X(PQsendQueryParams) X(PQsendQueryPrepared) \
    X(PQserverVersion) X(PQsetErrorVerbosity) X(PQsetNoticeProcessor) X(PQsetnonblocking) X(PQsocket) \
    X(PQstatus) X(PQtransactionStatus) X(PQunescapeBytea)

// libpq-fe.h's declarations of those functions under other names (never defined, never called),
// so that the wrappers can take libpq's names; their types give the table's pointer types.
#define PQbackendPID liveactivity_declared_PQbackendPID
#define PQclear liveactivity_declared_PQclear
#define PQcmdStatus liveactivity_declared_PQcmdStatus
#define PQcmdTuples liveactivity_declared_PQcmdTuples
#define PQconndefaults liveactivity_declared_PQconndefaults
#define PQconnectPoll liveactivity_declared_PQconnectPoll
#define PQconnectStart liveactivity_declared_PQconnectStart
#define PQconnectStartParams liveactivity_declared_PQconnectStartParams
#define PQconnectionNeedsPassword liveactivity_declared_PQconnectionNeedsPassword
#define PQconninfoFree liveactivity_declared_PQconninfoFree
#define PQconninfoParse liveactivity_declared_PQconninfoParse
#define PQconsumeInput liveactivity_declared_PQconsumeInput
#define PQenterPipelineMode liveactivity_declared_PQenterPipelineMode
#define PQerrorMessage liveactivity_declared_PQerrorMessage
#define PQexitPipelineMode liveactivity_declared_PQexitPipelineMode
#define PQfinish liveactivity_declared_PQfinish
#define PQflush liveactivity_declared_PQflush
#define PQfreemem liveactivity_declared_PQfreemem
#define PQgetResult liveactivity_declared_PQgetResult
#define PQgetisnull liveactivity_declared_PQgetisnull
#define PQgetvalue liveactivity_declared_PQgetvalue
#define PQhost liveactivity_declared_PQhost
#define PQisBusy liveactivity_declared_PQisBusy
#define PQnfields liveactivity_declared_PQnfields
#define PQntuples liveactivity_declared_PQntuples
#define PQpipelineSync liveactivity_declared_PQpipelineSync
#define PQresultErrorField liveactivity_declared_PQresultErrorField
#define PQresultErrorMessage liveactivity_declared_PQresultErrorMessage
#define PQresultStatus liveactivity_declared_PQresultStatus
#define PQsendPrepare liveactivity_declared_PQsendPrepare
#define PQsendQuery liveactivity_declared_PQsendQuery
#define PQsendQueryParams liveactivity_declared_PQsendQueryParams
#define PQsendQueryPrepared liveactivity_declared_PQsendQueryPrepared
#define PQserverVersion liveactivity_declared_PQserverVersion
#define PQsetErrorVerbosity liveactivity_declared_PQsetErrorVerbosity
#define PQsetNoticeProcessor liveactivity_declared_PQsetNoticeProcessor
#define PQsetnonblocking liveactivity_declared_PQsetnonblocking
#define PQsocket liveactivity_declared_PQsocket
#define PQstatus liveactivity_declared_PQstatus
#define PQtransactionStatus liveactivity_declared_PQtransactionStatus
#define PQunescapeBytea liveactivity_declared_PQunescapeBytea
#include <postgresql/libpq-fe.h>
#undef PQbackendPID
#undef PQclear
#undef PQcmdStatus
#undef PQcmdTuples
#undef PQconndefaults
#undef PQconnectPoll
#undef PQconnectStart
#undef PQconnectStartParams
#undef PQconnectionNeedsPassword
#undef PQconninfoFree
#undef PQconninfoParse
#undef PQconsumeInput
#undef PQenterPipelineMode
#undef PQerrorMessage
#undef PQexitPipelineMode
#undef PQfinish
#undef PQflush
#undef PQfreemem
#undef PQgetResult
#undef PQgetisnull
#undef PQgetvalue
#undef PQhost
#undef PQisBusy
#undef PQnfields
#undef PQntuples
#undef PQpipelineSync
#undef PQresultErrorField
#undef PQresultErrorMessage
#undef PQresultStatus
#undef PQsendPrepare
#undef PQsendQuery
#undef PQsendQueryParams
#undef PQsendQueryPrepared
#undef PQserverVersion
#undef PQsetErrorVerbosity
#undef PQsetNoticeProcessor
#undef PQsetnonblocking
#undef PQsocket
#undef PQstatus
#undef PQtransactionStatus
#undef PQunescapeBytea

// One pointer per function, of the type libpq-fe.h declares it with.
struct liveactivity_pq_functions {
#define LIVEACTIVITY_PQ_FIELD(name) __typeof__(liveactivity_declared_##name) *name;
    LIVEACTIVITY_PQ_FUNCTIONS(LIVEACTIVITY_PQ_FIELD)
#undef LIVEACTIVITY_PQ_FIELD
};

// Fills `table` from `library` (a dlopen handle): NULL when every function was found, else the
// name of the first that was not. A function is looked up as a linked program's would be: first
// in the process's global scope (RTLD_DEFAULT, a null handle in glibc), where a preloaded library
// may interpose it (a test freezes a sweep inside EVP_DigestSign so), then in the library.
static inline void *liveactivity_pq_lookup(void *library, const char *name) {
    void *function = dlsym((void *)0, name);
    return function ? function : dlsym(library, name);
}
static inline const char *liveactivity_pq_bind(struct liveactivity_pq_functions *table, void *library) {
#define LIVEACTIVITY_PQ_BIND(name) \
    if (!(table->name = (__typeof__(table->name))liveactivity_pq_lookup(library, #name))) return #name;
    LIVEACTIVITY_PQ_FUNCTIONS(LIVEACTIVITY_PQ_BIND)
#undef LIVEACTIVITY_PQ_BIND
    return 0;
}

// The table of the loaded library, defined in Swift (PostgresClient's PostgresLibrary): it loads
// libpq at its first call if nothing did before. Callers load it first (PostgresLibrary.load),
// which fails with one line where the library is missing.
const struct liveactivity_pq_functions *liveactivity_pq(void);

static inline int PQbackendPID(const PGconn *conn) { return liveactivity_pq()->PQbackendPID(conn); }
static inline void PQclear(PGresult *res) { liveactivity_pq()->PQclear(res); }
static inline char *PQcmdStatus(PGresult *res) { return liveactivity_pq()->PQcmdStatus(res); }
static inline char *PQcmdTuples(PGresult *res) { return liveactivity_pq()->PQcmdTuples(res); }
static inline PQconninfoOption *PQconndefaults(void) { return liveactivity_pq()->PQconndefaults(); }
static inline PostgresPollingStatusType PQconnectPoll(PGconn *conn) { return liveactivity_pq()->PQconnectPoll(conn); }
static inline PGconn *PQconnectStart(const char *conninfo) { return liveactivity_pq()->PQconnectStart(conninfo); }
static inline PGconn *PQconnectStartParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    return liveactivity_pq()->PQconnectStartParams(keywords, values, expand_dbname);
}
static inline int PQconnectionNeedsPassword(const PGconn *conn) {
    return liveactivity_pq()->PQconnectionNeedsPassword(conn);
}
static inline void PQconninfoFree(PQconninfoOption *connOptions) { liveactivity_pq()->PQconninfoFree(connOptions); }
static inline PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg) {
    return liveactivity_pq()->PQconninfoParse(conninfo, errmsg);
}
static inline int PQconsumeInput(PGconn *conn) { return liveactivity_pq()->PQconsumeInput(conn); }
static inline int PQenterPipelineMode(PGconn *conn) { return liveactivity_pq()->PQenterPipelineMode(conn); }
static inline char *PQerrorMessage(const PGconn *conn) { return liveactivity_pq()->PQerrorMessage(conn); }
static inline int PQexitPipelineMode(PGconn *conn) { return liveactivity_pq()->PQexitPipelineMode(conn); }
static inline void PQfinish(PGconn *conn) { liveactivity_pq()->PQfinish(conn); }
static inline int PQflush(PGconn *conn) { return liveactivity_pq()->PQflush(conn); }
static inline void PQfreemem(void *ptr) { liveactivity_pq()->PQfreemem(ptr); }
static inline PGresult *PQgetResult(PGconn *conn) { return liveactivity_pq()->PQgetResult(conn); }
static inline int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    return liveactivity_pq()->PQgetisnull(res, tup_num, field_num);
}
static inline char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return liveactivity_pq()->PQgetvalue(res, tup_num, field_num);
}
static inline char *PQhost(const PGconn *conn) { return liveactivity_pq()->PQhost(conn); }
static inline int PQisBusy(PGconn *conn) { return liveactivity_pq()->PQisBusy(conn); }
static inline int PQnfields(const PGresult *res) { return liveactivity_pq()->PQnfields(res); }
static inline int PQntuples(const PGresult *res) { return liveactivity_pq()->PQntuples(res); }
static inline int PQpipelineSync(PGconn *conn) { return liveactivity_pq()->PQpipelineSync(conn); }
static inline char *PQresultErrorField(const PGresult *res, int fieldcode) {
    return liveactivity_pq()->PQresultErrorField(res, fieldcode);
}
static inline char *PQresultErrorMessage(const PGresult *res) { return liveactivity_pq()->PQresultErrorMessage(res); }
static inline ExecStatusType PQresultStatus(const PGresult *res) { return liveactivity_pq()->PQresultStatus(res); }
static inline int PQsendPrepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes) {
    return liveactivity_pq()->PQsendPrepare(conn, stmtName, query, nParams, paramTypes);
}
static inline int PQsendQuery(PGconn *conn, const char *query) { return liveactivity_pq()->PQsendQuery(conn, query); }
static inline int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
    const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
    return liveactivity_pq()->PQsendQueryParams(
        conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat);
}
static inline int PQsendQueryPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
    const int *paramLengths, const int *paramFormats, int resultFormat) {
    return liveactivity_pq()->PQsendQueryPrepared(
        conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat);
}
static inline int PQserverVersion(const PGconn *conn) { return liveactivity_pq()->PQserverVersion(conn); }
static inline PGVerbosity PQsetErrorVerbosity(PGconn *conn, PGVerbosity verbosity) {
    return liveactivity_pq()->PQsetErrorVerbosity(conn, verbosity);
}
static inline PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return liveactivity_pq()->PQsetNoticeProcessor(conn, proc, arg);
}
static inline int PQsetnonblocking(PGconn *conn, int arg) { return liveactivity_pq()->PQsetnonblocking(conn, arg); }
static inline int PQsocket(const PGconn *conn) { return liveactivity_pq()->PQsocket(conn); }
static inline ConnStatusType PQstatus(const PGconn *conn) { return liveactivity_pq()->PQstatus(conn); }
static inline PGTransactionStatusType PQtransactionStatus(const PGconn *conn) {
    return liveactivity_pq()->PQtransactionStatus(conn);
}
static inline unsigned char *PQunescapeBytea(const unsigned char *strtext, size_t *retbuflen) {
    return liveactivity_pq()->PQunescapeBytea(strtext, retbuflen);
}

// libpq's error field codes are character-literal macros (PG_DIAG_SQLSTATE is 'C'), which Swift
// does not import: the fields PostgresClient reads, as constants Swift can name.
static const int liveactivity_pg_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int liveactivity_pg_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int liveactivity_pg_diag_severity_nonlocalized = PG_DIAG_SEVERITY_NONLOCALIZED;
static const int liveactivity_pg_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;
