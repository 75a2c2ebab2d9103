// libfcgi's explicit-request API (fcgiapp.h), not its stdio macros: each worker thread owns an
// FCGX_Request, so several requests are served at once from one process.
#include <fcgiapp.h>
