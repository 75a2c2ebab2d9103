/* scripts/bench: a TCP forwarder that puts a simulated network distance between a client and a
 * loopback server. Every chunk read from one side is written to the other RTT/2 after it
 * arrived, so a round trip through it takes RTT more; bytes are never reordered, bandwidth is
 * not limited (a chunk waits for its own due time, not for the chunks before it to be delayed
 * one by one), and TLS passes through untouched. One thread, epoll, a timerfd armed at the
 * earliest due chunk. The TCP handshake itself is not delayed (the kernel completes it on
 * accept); everything after it, the TLS handshake included, is.
 *
 *   latency-forwarder LISTEN_PORT TARGET_PORT RTT_MS    (both ports on 127.0.0.1)
 *
 * On SIGTERM or SIGINT it prints one line to stderr and exits 0: connections, bytes each way,
 * how late chunks left against their due time (mean and worst; a full receiver counts too) and
 * the most bytes held at once. A forwarder that cannot keep up shows it in the lateness.
 * Build: cc -O2 -o latency-forwarder latency-forwarder.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* Reading stops on a side while this much is held for its peer (it resumes once written). */
#define HELD_LIMIT (64u << 20)
#define READ_SIZE (256u << 10)

struct chunk {
    struct chunk *next;
    uint64_t due_ns; /* when it may be written */
    size_t length, offset;
    int eof; /* the sender closed its side: shut down the receiver's writing half */
    unsigned char data[];
};

/* One direction: what was read from side `from` waiting to be written to the other side. */
struct flow {
    struct chunk *head, *tail;
    size_t held;
    int read_closed; /* EOF read (or read side failed): read no more */
    int write_blocked; /* the receiver's socket buffer is full: wait for EPOLLOUT */
    int done; /* EOF delivered */
};

struct pair;
struct side {
    int fd;
    struct pair *pair;
    int index;
    uint32_t interest;
};

struct pair {
    struct side side[2]; /* 0: client, 1: server */
    struct flow flow[2]; /* flow[i]: read from side[i], written to side[1 - i] */
    struct pair *prev, *next;
    int closing;
};

static int epoll_fd, timer_fd, listen_fd;
static struct sockaddr_in target;
static uint64_t half_rtt_ns;
static struct pair *pairs;
static volatile sig_atomic_t stopping;
static unsigned long long connections, bytes[2], late_max_ns, late_sum_ns, chunks_written;
static size_t held_max, held_total;
static unsigned char buffer[READ_SIZE];

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "latency-forwarder: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void on_signal(int signo) { (void)signo; stopping = 1; }

/* Read interest unless the flow out of this side is closed or holds too much; write interest
 * while the flow into this side is blocked. */
static void update_interest(struct side *s) {
    struct pair *p = s->pair;
    struct flow *out = &p->flow[s->index], *in = &p->flow[1 - s->index];
    uint32_t want = 0;
    if (!out->read_closed && out->held < HELD_LIMIT) want |= EPOLLIN;
    if (in->write_blocked) want |= EPOLLOUT;
    if (want == s->interest) return;
    /* With no interest the socket leaves the epoll set: a hung-up socket would report EPOLLHUP
     * on every wait while its last bytes are still being delayed. */
    struct epoll_event ev = {.events = want, .data.ptr = s};
    int op = want == 0 ? EPOLL_CTL_DEL : s->interest == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
    if (epoll_ctl(epoll_fd, op, s->fd, &ev) < 0) die("epoll_ctl");
    s->interest = want;
}

static void close_pair(struct pair *p) {
    for (int i = 0; i < 2; i++) {
        close(p->side[i].fd);
        struct chunk *c = p->flow[i].head;
        while (c) {
            struct chunk *next = c->next;
            held_total -= c->length - c->offset;
            free(c);
            c = next;
        }
    }
    if (p->prev) p->prev->next = p->next; else pairs = p->next;
    if (p->next) p->next->prev = p->prev;
    free(p);
}

static void enqueue(struct flow *f, const unsigned char *data, size_t length, int eof, uint64_t arrived) {
    struct chunk *c = malloc(sizeof *c + length);
    if (!c) die("malloc");
    c->next = NULL;
    c->due_ns = arrived + half_rtt_ns;
    c->length = length;
    c->offset = 0;
    c->eof = eof;
    memcpy(c->data, data, length);
    if (f->tail) f->tail->next = c; else f->head = c;
    f->tail = c;
    f->held += length;
    held_total += length;
    if (held_total > held_max) held_max = held_total;
}

/* Reads everything the socket has; a failed or closed read ends that direction with an EOF
 * marker due RTT/2 later (a reset ends the whole pair at once). */
static void read_side(struct side *s) {
    struct pair *p = s->pair;
    struct flow *f = &p->flow[s->index];
    while (!f->read_closed && f->held < HELD_LIMIT) {
        ssize_t n = read(s->fd, buffer, sizeof buffer);
        if (n > 0) {
            bytes[s->index] += (unsigned long long)n;
            enqueue(f, buffer, (size_t)n, 0, now_ns());
            if ((size_t)n < sizeof buffer) break;
        } else if (n == 0) {
            f->read_closed = 1;
            enqueue(f, NULL, 0, 1, now_ns());
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN) {
            break;
        } else {
            p->closing = 1;
            return;
        }
    }
}

/* Writes the flow's due chunks to the receiving side until one is not due or the socket is full. */
static void flush(struct pair *p, int index, uint64_t now) {
    struct flow *f = &p->flow[index];
    struct side *to = &p->side[1 - index];
    while (f->head && f->head->due_ns <= now) {
        struct chunk *c = f->head;
        if (c->eof) {
            shutdown(to->fd, SHUT_WR);
            f->done = 1;
        } else {
            ssize_t n = send(to->fd, c->data + c->offset, c->length - c->offset, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR) continue;
                if (errno == EAGAIN) { f->write_blocked = 1; return; }
                p->closing = 1;
                return;
            }
            if (c->offset == 0) {
                uint64_t late = now - c->due_ns;
                if (late > late_max_ns) late_max_ns = late;
                late_sum_ns += late;
                chunks_written++;
            }
            c->offset += (size_t)n;
            f->held -= (size_t)n;
            held_total -= (size_t)n;
            if (c->offset < c->length) { f->write_blocked = 1; return; }
        }
        f->head = c->next;
        if (!f->head) f->tail = NULL;
        free(c);
    }
    f->write_blocked = 0;
}

static void accept_clients(void) {
    for (;;) {
        int client = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (client < 0) {
            if (errno == EINTR) continue;
            return; /* EAGAIN, or a client gone before accept */
        }
        int server = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        /* Loopback connect completes at once; blocking keeps the state machine simple. */
        if (server < 0 || connect(server, (struct sockaddr *)&target, sizeof target) < 0) {
            fprintf(stderr, "latency-forwarder: connect to the target: %s\n", strerror(errno));
            if (server >= 0) close(server);
            close(client);
            continue;
        }
        int one = 1;
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (fcntl(server, F_SETFL, fcntl(server, F_GETFL) | O_NONBLOCK) < 0) die("fcntl");
        struct pair *p = calloc(1, sizeof *p);
        if (!p) die("calloc");
        p->side[0] = (struct side){.fd = client, .pair = p, .index = 0, .interest = EPOLLIN};
        p->side[1] = (struct side){.fd = server, .pair = p, .index = 1, .interest = EPOLLIN};
        for (int i = 0; i < 2; i++) {
            struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &p->side[i]};
            if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, p->side[i].fd, &ev) < 0) die("epoll_ctl");
        }
        p->next = pairs;
        if (pairs) pairs->prev = p;
        pairs = p;
        connections++;
    }
}

/* Arms the timer at the earliest due chunk of a flow that can be written (0: disarmed). */
static void arm_timer(void) {
    uint64_t earliest = 0;
    for (struct pair *p = pairs; p; p = p->next)
        for (int i = 0; i < 2; i++) {
            struct flow *f = &p->flow[i];
            if (f->head && !f->write_blocked && (earliest == 0 || f->head->due_ns < earliest)) earliest = f->head->due_ns;
        }
    struct itimerspec at = {0};
    if (earliest) {
        at.it_value.tv_sec = (time_t)(earliest / 1000000000u);
        at.it_value.tv_nsec = (long)(earliest % 1000000000u);
    }
    if (timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &at, NULL) < 0) die("timerfd_settime");
}

static int port_arg(const char *text) {
    char *end;
    long value = strtol(text, &end, 10);
    if (*end || value < 1 || value > 65535) {
        fprintf(stderr, "latency-forwarder: not a port: %s\n", text);
        exit(2);
    }
    return (int)value;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: latency-forwarder LISTEN_PORT TARGET_PORT RTT_MS\n");
        return 2;
    }
    int listen_port = port_arg(argv[1]), target_port = port_arg(argv[2]);
    char *end;
    double rtt_ms = strtod(argv[3], &end);
    if (*end || rtt_ms < 0 || rtt_ms > 10000) {
        fprintf(stderr, "latency-forwarder: RTT_MS must be 0 to 10000: %s\n", argv[3]);
        return 2;
    }
    half_rtt_ns = (uint64_t)(rtt_ms * 1e6 / 2);

    target = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)target_port)};
    target.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct sockaddr_in here = target;
    here.sin_port = htons((uint16_t)listen_port);
    listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&here, sizeof here) < 0 || listen(listen_fd, 1024) < 0)
        die("listen");

    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (epoll_fd < 0 || timer_fd < 0) die("epoll/timerfd");
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &listen_fd};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listen_fd, &ev);
    ev.data.ptr = &timer_fd;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, timer_fd, &ev);

    struct epoll_event events[256];
    while (!stopping) {
        int n = epoll_wait(epoll_fd, events, 256, -1);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("epoll_wait");
        }
        for (int i = 0; i < n; i++) {
            void *tag = events[i].data.ptr;
            if (tag == &listen_fd) {
                accept_clients();
            } else if (tag == &timer_fd) {
                uint64_t expirations;
                (void)!read(timer_fd, &expirations, sizeof expirations);
            } else {
                struct side *s = tag;
                if (s->pair->closing) continue;
                if (events[i].events & EPOLLOUT) s->pair->flow[1 - s->index].write_blocked = 0;
                if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) read_side(s);
            }
        }
        /* Every flow writes what is due now; a pair ends when both EOFs went through or it failed. */
        uint64_t now = now_ns();
        struct pair *p = pairs;
        while (p) {
            struct pair *next = p->next;
            for (int i = 0; i < 2 && !p->closing; i++)
                if (!p->flow[i].write_blocked) flush(p, i, now);
            if (p->closing || (p->flow[0].done && p->flow[1].done)) {
                close_pair(p);
            } else {
                update_interest(&p->side[0]);
                update_interest(&p->side[1]);
            }
            p = next;
        }
        arm_timer();
    }
    fprintf(stderr,
        "latency-forwarder: rtt_ms=%g connections=%llu bytes_to_server=%llu bytes_to_client=%llu "
        "late_max_us=%.0f late_mean_us=%.1f held_max_bytes=%zu\n",
        rtt_ms, connections, bytes[0], bytes[1], late_max_ns / 1e3,
        chunks_written ? late_sum_ns / 1e3 / (double)chunks_written : 0.0, held_max);
    return 0;
}
