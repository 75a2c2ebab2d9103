/* scripts/bench part 4's floor for the sweep's CPU a push (issue 52): the least a client over the
 * same libcurl can spend on a push. One multi handle, DEPTH easy handles made once with every
 * option, header list and body, and reused: between two pushes only the URL is set again;
 * driven by curl_multi_perform and curl_multi_poll, as the sweep's client is. At most
 * CONNECTIONS connections to the host, no CURLOPT_PIPEWAIT (the sweep's settings).
 *
 *   push-client URLS CONNECTIONS DEPTH CAFILE JWT EXPIRATION
 *
 * URLS: a file of one URL a line, each pushed once. Prints one line,
 *   RESULT pushes=N ok=M errors=E seconds=S cpu_us=C
 * cpu_us: user + system time of this process (getrusage) a push. An answer other than 200, or
 * a transfer ending in an error, is an error. Handles are never reset, so libcurl's lifetime cap
 * of 5 resends a handle would bite after GOAWAYs; the bench's endpoint sends none. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const char payload[] = "{\"aps\":{\"content-available\":1},\"liveActivityWakeup\":true}";

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    return size * count;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: push-client URLS CONNECTIONS DEPTH CAFILE JWT EXPIRATION\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "r");
    if (!file) return 2;
    size_t count = 0, room = 1024;
    char **urls = malloc(room * sizeof *urls);
    char line[512];
    while (fgets(line, sizeof line, file)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        if (count == room) urls = realloc(urls, (room *= 2) * sizeof *urls);
        urls[count++] = strdup(line);
    }
    fclose(file);
    long connections = atol(argv[2]), depth = atol(argv[3]);
    if (depth > (long)count) depth = (long)count;

    char authorization[1024], expiration[64];
    snprintf(authorization, sizeof authorization, "authorization: bearer %s", argv[5]);
    snprintf(expiration, sizeof expiration, "apns-expiration: %s", argv[6]);
    struct curl_slist *headers = NULL;
    headers = curl_slist_append(headers, "apns-topic: org.example.bench");
    headers = curl_slist_append(headers, "apns-push-type: background");
    headers = curl_slist_append(headers, "apns-priority: 5");
    headers = curl_slist_append(headers, "content-type: application/json");
    headers = curl_slist_append(headers, authorization);
    headers = curl_slist_append(headers, expiration);

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connections);
    curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, 500L);

    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    double cpu_start = cpu_seconds();
    size_t next = 0, ok = 0, errors = 0;
    for (long i = 0; i < depth; i++) {
        CURL *easy = curl_easy_init();
        curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        curl_easy_setopt(easy, CURLOPT_CAINFO, argv[4]);
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, payload);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, (long)(sizeof payload - 1));
        curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, 1024L);
        curl_easy_setopt(easy, CURLOPT_URL, urls[next++]);
        curl_multi_add_handle(multi, easy);
    }
    int running = 1;
    while (running || next < count) {
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result == CURLE_OK && status == 200) ok++; else errors++;
            curl_multi_remove_handle(multi, easy);
            if (next < count) {
                curl_easy_setopt(easy, CURLOPT_URL, urls[next++]);
                curl_multi_add_handle(multi, easy);
                running = 1;
            } else {
                curl_easy_cleanup(easy);
            }
        }
        if (running) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    double cpu = cpu_seconds() - cpu_start;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    printf("RESULT pushes=%zu ok=%zu errors=%zu seconds=%.3f cpu_us=%.1f\n", count, ok, errors + (count - ok - errors), seconds,
        cpu / count * 1e6);
    curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    return ok == count ? 0 : 1;
}
