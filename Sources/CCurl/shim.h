// libcurl is not linked: APNsHTTP2 loads libcurl.so.4 at run time (CurlLibrary), when a sweep has
// pushes to send, so an idle cron run never maps libcurl and the ~35 libraries it brings (GnuTLS,
// GSSAPI, LDAP, SSH, nghttp2, ...). Every function APNsHTTP2 calls is a pointer in one table, and
// a static inline wrapper of libcurl's own name and prototype calls through it, so the Swift code
// reads as it would over the linked library.
#include <dlfcn.h>

// The wrappers below are the calls; curl.h's type-checking macros would stand in their way.
#define CURL_DISABLE_TYPECHECK 1

// The functions called: one line each, in the table and its binding.
#define LIVEACTIVITY_CURL_FUNCTIONS(X) \
    X(curl_easy_cleanup) X(curl_easy_getinfo) X(curl_easy_init) X(curl_easy_reset) X(curl_easy_setopt) \
    X(curl_easy_strerror) X(curl_global_init) X(curl_multi_add_handle) X(curl_multi_cleanup) \
    X(curl_multi_info_read) X(curl_multi_init) X(curl_multi_perform) X(curl_multi_poll) \
    X(curl_multi_remove_handle) X(curl_multi_setopt) X(curl_multi_strerror) X(curl_slist_append) \
    X(curl_slist_free_all)

// curl.h's declarations of those functions under other names (never defined, never called), so
// that the wrappers can take libcurl's names; their types give the table's pointer types,
// variadic ones included (curl_easy_setopt), so C makes each call as libcurl expects it.
#define curl_easy_cleanup liveactivity_declared_curl_easy_cleanup
#define curl_easy_getinfo liveactivity_declared_curl_easy_getinfo
#define curl_easy_init liveactivity_declared_curl_easy_init
#define curl_easy_reset liveactivity_declared_curl_easy_reset
#define curl_easy_setopt liveactivity_declared_curl_easy_setopt
#define curl_easy_strerror liveactivity_declared_curl_easy_strerror
#define curl_global_init liveactivity_declared_curl_global_init
#define curl_multi_add_handle liveactivity_declared_curl_multi_add_handle
#define curl_multi_cleanup liveactivity_declared_curl_multi_cleanup
#define curl_multi_info_read liveactivity_declared_curl_multi_info_read
#define curl_multi_init liveactivity_declared_curl_multi_init
#define curl_multi_perform liveactivity_declared_curl_multi_perform
#define curl_multi_poll liveactivity_declared_curl_multi_poll
#define curl_multi_remove_handle liveactivity_declared_curl_multi_remove_handle
#define curl_multi_setopt liveactivity_declared_curl_multi_setopt
#define curl_multi_strerror liveactivity_declared_curl_multi_strerror
#define curl_slist_append liveactivity_declared_curl_slist_append
#define curl_slist_free_all liveactivity_declared_curl_slist_free_all
#include <curl/curl.h>
#undef curl_easy_cleanup
#undef curl_easy_getinfo
#undef curl_easy_init
#undef curl_easy_reset
#undef curl_easy_setopt
#undef curl_easy_strerror
#undef curl_global_init
#undef curl_multi_add_handle
#undef curl_multi_cleanup
#undef curl_multi_info_read
#undef curl_multi_init
#undef curl_multi_perform
#undef curl_multi_poll
#undef curl_multi_remove_handle
#undef curl_multi_setopt
#undef curl_multi_strerror
#undef curl_slist_append
#undef curl_slist_free_all

// One pointer per function, of the type curl.h declares it with.
struct liveactivity_curl_functions {
#define LIVEACTIVITY_CURL_FIELD(name) __typeof__(liveactivity_declared_##name) *name;
    LIVEACTIVITY_CURL_FUNCTIONS(LIVEACTIVITY_CURL_FIELD)
#undef LIVEACTIVITY_CURL_FIELD
};

// Fills `table` from `library` (a dlopen handle): NULL when every function was found, else the
// name of the first that was not. A function is looked up as a linked program's would be: first
// in the process's global scope (RTLD_DEFAULT, a null handle in glibc), where a preloaded library
// may interpose it (a test freezes a sweep inside EVP_DigestSign so), then in the library.
static inline void *liveactivity_curl_lookup(void *library, const char *name) {
    void *function = dlsym((void *)0, name);
    return function ? function : dlsym(library, name);
}
static inline const char *liveactivity_curl_bind(struct liveactivity_curl_functions *table, void *library) {
#define LIVEACTIVITY_CURL_BIND(name) \
    if (!(table->name = (__typeof__(table->name))liveactivity_curl_lookup(library, #name))) return #name;
    LIVEACTIVITY_CURL_FUNCTIONS(LIVEACTIVITY_CURL_BIND)
#undef LIVEACTIVITY_CURL_BIND
    return 0;
}

// The table of the loaded library, defined in Swift (APNsHTTP2's CurlLibrary): it loads libcurl
// at its first call if nothing did before. Callers load it first (CurlLibrary.load, through
// CurlGlobal), which fails with one line where the library is missing.
const struct liveactivity_curl_functions *liveactivity_curl(void);

static inline void curl_easy_cleanup(CURL *curl) { liveactivity_curl()->curl_easy_cleanup(curl); }
static inline CURL *curl_easy_init(void) { return liveactivity_curl()->curl_easy_init(); }
static inline void curl_easy_reset(CURL *curl) { liveactivity_curl()->curl_easy_reset(curl); }
static inline const char *curl_easy_strerror(CURLcode code) { return liveactivity_curl()->curl_easy_strerror(code); }
static inline CURLcode curl_global_init(long flags) { return liveactivity_curl()->curl_global_init(flags); }
static inline CURLMcode curl_multi_add_handle(CURLM *multi_handle, CURL *curl_handle) {
    return liveactivity_curl()->curl_multi_add_handle(multi_handle, curl_handle);
}
static inline CURLMcode curl_multi_cleanup(CURLM *multi_handle) { return liveactivity_curl()->curl_multi_cleanup(multi_handle); }
static inline CURLMsg *curl_multi_info_read(CURLM *multi_handle, int *msgs_in_queue) {
    return liveactivity_curl()->curl_multi_info_read(multi_handle, msgs_in_queue);
}
static inline CURLM *curl_multi_init(void) { return liveactivity_curl()->curl_multi_init(); }
static inline CURLMcode curl_multi_perform(CURLM *multi_handle, int *running_handles) {
    return liveactivity_curl()->curl_multi_perform(multi_handle, running_handles);
}
static inline CURLMcode curl_multi_poll(
    CURLM *multi_handle, struct curl_waitfd extra_fds[], unsigned int extra_nfds, int timeout_ms, int *ret) {
    return liveactivity_curl()->curl_multi_poll(multi_handle, extra_fds, extra_nfds, timeout_ms, ret);
}
static inline CURLMcode curl_multi_remove_handle(CURLM *multi_handle, CURL *curl_handle) {
    return liveactivity_curl()->curl_multi_remove_handle(multi_handle, curl_handle);
}
static inline const char *curl_multi_strerror(CURLMcode code) { return liveactivity_curl()->curl_multi_strerror(code); }
static inline struct curl_slist *curl_slist_append(struct curl_slist *list, const char *data) {
    return liveactivity_curl()->curl_slist_append(list, data);
}
static inline void curl_slist_free_all(struct curl_slist *list) { liveactivity_curl()->curl_slist_free_all(list); }

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call:
// one typed wrapper per argument kind, each a variadic call through the table.
static inline CURLcode liveactivity_easy_setopt_long(CURL *h, CURLoption o, long v) {
    return liveactivity_curl()->curl_easy_setopt(h, o, v);
}
static inline CURLcode liveactivity_easy_setopt_ptr(CURL *h, CURLoption o, const void *v) {
    return liveactivity_curl()->curl_easy_setopt(h, o, v);
}
static inline CURLcode liveactivity_easy_setopt_write(CURL *h, CURLoption o,
    size_t (*f)(char *, size_t, size_t, void *)) {
    return liveactivity_curl()->curl_easy_setopt(h, o, f);
}
// CURLOPT_SOCKOPTFUNCTION and CURLOPT_CLOSESOCKETFUNCTION: told of each connection's socket as
// libcurl opens it, and closing it for libcurl.
static inline CURLcode liveactivity_easy_setopt_sockopt(CURL *h, CURLoption o, curl_sockopt_callback f) {
    return liveactivity_curl()->curl_easy_setopt(h, o, f);
}
static inline CURLcode liveactivity_easy_setopt_closesocket(CURL *h, CURLoption o, curl_closesocket_callback f) {
    return liveactivity_curl()->curl_easy_setopt(h, o, f);
}
static inline CURLcode liveactivity_easy_getinfo_long(CURL *h, CURLINFO i, long *v) {
    return liveactivity_curl()->curl_easy_getinfo(h, i, v);
}
static inline CURLcode liveactivity_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) {
    return liveactivity_curl()->curl_easy_getinfo(h, i, v);
}
static inline CURLMcode liveactivity_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
    return liveactivity_curl()->curl_multi_setopt(m, o, v);
}
// A string option (URL, CA file): libcurl copies the text, so the caller's buffer may go away.
static inline CURLcode liveactivity_easy_setopt_string(CURL *h, CURLoption o, const char *v) {
    return liveactivity_curl()->curl_easy_setopt(h, o, v);
}
// CURLOPT_HTTPHEADER takes a list; the list must outlive every transfer that uses it.
static inline CURLcode liveactivity_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
    return liveactivity_curl()->curl_easy_setopt(h, o, v);
}
// CURLINFO_*_TIME_T: microseconds as curl_off_t.
static inline CURLcode liveactivity_easy_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) {
    return liveactivity_curl()->curl_easy_getinfo(h, i, v);
}
