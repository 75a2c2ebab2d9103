#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot call:
// one typed wrapper per argument kind.
static inline CURLcode liveactivity_easy_setopt_long(CURL *h, CURLoption o, long v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode liveactivity_easy_setopt_ptr(CURL *h, CURLoption o, const void *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode liveactivity_easy_setopt_write(CURL *h, CURLoption o,
    size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, o, f);
}
static inline CURLcode liveactivity_easy_getinfo_long(CURL *h, CURLINFO i, long *v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLcode liveactivity_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) {
    return curl_easy_getinfo(h, i, v);
}
static inline CURLMcode liveactivity_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
    return curl_multi_setopt(m, o, v);
}
// A string option (URL, CA file): libcurl copies the text, so the caller's buffer may go away.
static inline CURLcode liveactivity_easy_setopt_string(CURL *h, CURLoption o, const char *v) {
    return curl_easy_setopt(h, o, v);
}
// CURLOPT_HTTPHEADER takes a list; the list must outlive every transfer that uses it.
static inline CURLcode liveactivity_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
    return curl_easy_setopt(h, o, v);
}
// CURLINFO_*_TIME_T: microseconds as curl_off_t.
static inline CURLcode liveactivity_easy_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) {
    return curl_easy_getinfo(h, i, v);
}
