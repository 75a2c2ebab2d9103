#include <libpq-fe.h>

// libpq's error field codes are character-literal macros (PG_DIAG_SQLSTATE is 'C'), which Swift
// does not import: the fields PostgresClient reads, as constants Swift can name.
static const int liveactivity_pg_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int liveactivity_pg_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int liveactivity_pg_diag_severity_nonlocalized = PG_DIAG_SEVERITY_NONLOCALIZED;
static const int liveactivity_pg_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;
