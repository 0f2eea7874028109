// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Clumsy's JACK shim: a client with MIDI output ports, fed through a lock-free
// single-producer/single-consumer ring buffer. The process callback (JACK's real-time
// thread) reads the ring and writes each event at its frame offset in the cycle; it
// allocates nothing and takes no lock. The producer is the session thread.
#ifndef CLUMSY_JACK_SHIM_H
#define CLUMSY_JACK_SHIM_H

#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/transport.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#define CLUMSY_JACK_RING 16384u   /* events; a power of two */
#define CLUMSY_JACK_PORTS 32

typedef struct {
    jack_nframes_t frame;   /* absolute JACK frame time at which the event sounds */
    uint8_t port;
    uint8_t size;
    uint8_t bytes[3];
} clumsy_jack_event;

typedef struct {
    jack_client_t *client;
    jack_port_t *ports[CLUMSY_JACK_PORTS];
    int port_count;
    _Atomic uint32_t head;          /* next slot the producer writes */
    _Atomic uint32_t tail;          /* next slot the consumer reads */
    _Atomic int is_shut_down;       /* the server went away */
    _Atomic uint64_t delivered;     /* events written into port buffers */
    _Atomic uint64_t late;          /* events whose frame had passed: sent at offset 0 */
    _Atomic uint64_t dropped;       /* events a full port buffer refused */
    _Atomic int64_t worst_late;     /* frames, largest lateness */
    _Atomic uint64_t cycles;        /* process cycles run: a server that stops cycling has stalled */
    clumsy_jack_event ring[CLUMSY_JACK_RING];
} clumsy_jack_state;

static int clumsy_jack_process(jack_nframes_t nframes, void *arg) {
    clumsy_jack_state *s = (clumsy_jack_state *)arg;
    void *buffers[CLUMSY_JACK_PORTS];
    jack_nframes_t last[CLUMSY_JACK_PORTS];
    for (int i = 0; i < s->port_count; i++) {
        buffers[i] = jack_port_get_buffer(s->ports[i], nframes);
        jack_midi_clear_buffer(buffers[i]);
        last[i] = 0;
    }
    jack_nframes_t start = jack_last_frame_time(s->client);
    uint32_t tail = atomic_load_explicit(&s->tail, memory_order_relaxed);
    uint32_t head = atomic_load_explicit(&s->head, memory_order_acquire);
    while (tail != head) {
        const clumsy_jack_event *e = &s->ring[tail & (CLUMSY_JACK_RING - 1)];
        int32_t offset = (int32_t)(e->frame - start);   /* wraps correctly every 2^32 frames */
        if (offset >= (int32_t)nframes) break;
        if (offset < 0) {
            atomic_fetch_add_explicit(&s->late, 1, memory_order_relaxed);
            if (-(int64_t)offset > atomic_load_explicit(&s->worst_late, memory_order_relaxed))
                atomic_store_explicit(&s->worst_late, -(int64_t)offset, memory_order_relaxed);
            offset = 0;
        }
        if (e->port < s->port_count) {
            jack_nframes_t at = (jack_nframes_t)offset < last[e->port] ? last[e->port] : (jack_nframes_t)offset;
            if (jack_midi_event_write(buffers[e->port], at, e->bytes, e->size) == 0) {
                last[e->port] = at;
                atomic_fetch_add_explicit(&s->delivered, 1, memory_order_relaxed);
            } else {
                atomic_fetch_add_explicit(&s->dropped, 1, memory_order_relaxed);
            }
        }
        tail++;
    }
    atomic_store_explicit(&s->tail, tail, memory_order_release);
    atomic_fetch_add_explicit(&s->cycles, 1, memory_order_release);
    return 0;
}

static void clumsy_jack_shutdown(void *arg) {
    clumsy_jack_state *s = (clumsy_jack_state *)arg;
    atomic_store_explicit(&s->is_shut_down, 1, memory_order_release);
}

static void clumsy_jack_silent(const char *message) { (void)message; }

/* Opens a bare client (never starting a server, not activated). Returns NULL and sets
   *status on failure. libjack's own chatter on stderr is silenced, also the lines it prints
   straight to stderr when no server answers: Clumsy reports failures in one line. */
static inline jack_client_t *clumsy_jack_open_bare(const char *name, int *status) {
    jack_set_error_function(clumsy_jack_silent);
    jack_set_info_function(clumsy_jack_silent);
    jack_status_t st = 0;
    int saved = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null >= 0) dup2(null, 2);
    jack_client_t *client = jack_client_open(name, JackNoStartServer, &st);
    if (saved >= 0 && null >= 0) dup2(saved, 2);
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    *status = (int)st;
    return client;
}

/* A client that opens while another client of the same process is active can be deaf for
   good. libjack (jackd2 1.9.21) keeps one table of wake-up futexes per process, indexed by
   client number; when another program's client (a patchbay's probe, `jack_connect`) closes
   just as Clumsy's second client opens with the number it freed, the new client can keep the
   departed one's futex, and its thread waits on it forever: the server logs "client = … was
   not finished, state = Triggered" every cycle and its process callback never runs (seen under
   load in 6 of 72 starts of `--midi-in jack --midi-out jack`; the stuck thread's futex was the
   deleted `jack_sem…_jack_connect`). So each client Clumsy activates must run its process
   callback (first called in the client's second cycle) before the server's clock has moved on
   by `CLUMSY_JACK_DEAF_PERIODS` periods and `CLUMSY_JACK_FIRST_CYCLE_MS`; a deaf client is
   closed and, after `CLUMSY_JACK_REOPEN_PAUSE_MS` (for the process's other clients to hear that
   it left), opened again, up to `CLUMSY_JACK_OPEN_ATTEMPTS` times; connections another program
   made to a deaf attempt's ports are made again to the new ones. The last attempt, deaf too, is
   returned with `deaf` set, for the caller to refuse. */
#define CLUMSY_JACK_FIRST_CYCLE_MS 1000
#define CLUMSY_JACK_DEAF_PERIODS 8
#define CLUMSY_JACK_REOPEN_PAUSE_MS 100
#define CLUMSY_JACK_OPEN_ATTEMPTS 3

/* Waits for an activated client's first process callback (`cycles` above zero): 1 when it
   ran; 0 when the client is deaf (the server's clock moved on by the periods and milliseconds
   above without it) or was shut down. A server whose clock stands still is waited for 10 s at
   most, and then counts as heard: the session's own checks speak for a stalled server. */
static inline int clumsy_jack_await_cycle(jack_client_t *client, _Atomic uint64_t *cycles, _Atomic int *shut_down) {
    const struct timespec millisecond = {0, 1000000};
    jack_nframes_t needed = CLUMSY_JACK_DEAF_PERIODS * jack_get_buffer_size(client);
    jack_nframes_t second = (jack_nframes_t)((uint64_t)jack_get_sample_rate(client) * CLUMSY_JACK_FIRST_CYCLE_MS / 1000);
    if (needed < second) needed = second;
    jack_nframes_t start = jack_frame_time(client);
    for (int waited = 0; waited < 10000; waited++) {
        if (atomic_load_explicit(cycles, memory_order_acquire) > 0) return 1;
        if (atomic_load_explicit(shut_down, memory_order_acquire)) return 0;
        if ((jack_nframes_t)(jack_frame_time(client) - start) >= needed) return atomic_load_explicit(cycles, memory_order_acquire) > 0;
        nanosleep(&millisecond, NULL);
    }
    return 1;
}

/* The pause before a deaf client is opened again. */
static inline void clumsy_jack_reopen_pause(void) {
    const struct timespec pause = {0, CLUMSY_JACK_REOPEN_PAUSE_MS * 1000000L};
    nanosleep(&pause, NULL);
}

/* A copy of the names of the ports connected to `port`, NULL-terminated (NULL when none), for
   `clumsy_jack_free_names`. A copy: libjack's own list points into the server's shared memory,
   which the process's last client takes with it when it closes. */
static inline char **clumsy_jack_copy_connections(jack_port_t *port) {
    const char **list = jack_port_get_connections(port);
    if (!list) return NULL;
    int count = 0;
    while (list[count]) count++;
    char **copy = (char **)calloc((size_t)count + 1, sizeof(char *));
    for (int i = 0; copy && i < count; i++) {
        if (!(copy[i] = strdup(list[i]))) break;
    }
    jack_free(list);
    return copy;
}

static inline void clumsy_jack_free_names(char **names) {
    if (!names) return;
    for (int i = 0; names[i]; i++) free(names[i]);
    free(names);
}

/* Opens a client with MIDI output ports to come (never starting a server). Returns NULL and
   sets *status on failure. */
static inline clumsy_jack_state *clumsy_jack_open(const char *name, int *status) {
    jack_client_t *client = clumsy_jack_open_bare(name, status);
    if (!client) return NULL;
    clumsy_jack_state *s = (clumsy_jack_state *)calloc(1, sizeof(clumsy_jack_state));
    if (!s) { jack_client_close(client); return NULL; }
    s->client = client;
    jack_set_process_callback(client, clumsy_jack_process, s);
    jack_on_shutdown(client, clumsy_jack_shutdown, s);
    return s;
}

/* Registers a MIDI output port; returns its index or -1. Only before activation. */
static inline int clumsy_jack_add_port(clumsy_jack_state *s, const char *name) {
    if (s->port_count >= CLUMSY_JACK_PORTS) return -1;
    jack_port_t *port = jack_port_register(s->client, name, JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
    if (!port) return -1;
    s->ports[s->port_count] = port;
    return s->port_count++;
}

/* Queues one event (1…3 bytes). Returns 0 when the ring is full. Producer thread only. */
static inline int clumsy_jack_push(clumsy_jack_state *s, jack_nframes_t frame, int port, int size,
                                   uint8_t b0, uint8_t b1, uint8_t b2) {
    uint32_t head = atomic_load_explicit(&s->head, memory_order_relaxed);
    uint32_t tail = atomic_load_explicit(&s->tail, memory_order_acquire);
    if (head - tail >= CLUMSY_JACK_RING) return 0;
    clumsy_jack_event *e = &s->ring[head & (CLUMSY_JACK_RING - 1)];
    e->frame = frame;
    e->port = (uint8_t)port;
    e->size = (uint8_t)size;
    e->bytes[0] = b0; e->bytes[1] = b1; e->bytes[2] = b2;
    atomic_store_explicit(&s->head, head + 1, memory_order_release);
    return 1;
}

/* Events queued and not yet delivered. */
static inline uint32_t clumsy_jack_pending(clumsy_jack_state *s) {
    return atomic_load_explicit(&s->head, memory_order_acquire) - atomic_load_explicit(&s->tail, memory_order_acquire);
}

static inline int clumsy_jack_is_shut_down(clumsy_jack_state *s) {
    return atomic_load_explicit(&s->is_shut_down, memory_order_acquire);
}

static inline uint64_t clumsy_jack_delivered(clumsy_jack_state *s) { return atomic_load(&s->delivered); }
static inline uint64_t clumsy_jack_late(clumsy_jack_state *s) { return atomic_load(&s->late); }
static inline uint64_t clumsy_jack_dropped(clumsy_jack_state *s) { return atomic_load(&s->dropped); }
static inline int64_t clumsy_jack_worst_late(clumsy_jack_state *s) { return atomic_load(&s->worst_late); }

static inline uint64_t clumsy_jack_cycles(clumsy_jack_state *s) { return atomic_load_explicit(&s->cycles, memory_order_acquire); }

/* After activation: 1 when the process callback has run, 0 when the client is deaf
   (`clumsy_jack_await_cycle`). */
static inline int clumsy_jack_ran_first_cycle(clumsy_jack_state *s) { return clumsy_jack_await_cycle(s->client, &s->cycles, &s->is_shut_down); }

static inline jack_port_t *clumsy_jack_port(clumsy_jack_state *s, int index) { return s->ports[index]; }

/* Closes the client (unless the server is gone) and frees the state. */
static inline void clumsy_jack_close(clumsy_jack_state *s, int deactivate) {
    if (deactivate) jack_deactivate(s->client);
    jack_client_close(s->client);
    free(s);
}

/* MIDI in: a client with one MIDI input port. The process callback copies each short
   message (1…3 bytes: channel voice messages) into a ring the session thread drains; it
   allocates nothing and takes no lock. A full ring drops the message and counts it. */
#define CLUMSY_JACK_IN_RING 4096u   /* events; a power of two */

typedef struct {
    jack_client_t *client;
    jack_port_t *port;
    _Atomic uint32_t head;          /* next slot the callback writes */
    _Atomic uint32_t tail;          /* next slot the session reads */
    _Atomic int is_shut_down;
    _Atomic uint64_t overflowed;    /* messages a full ring dropped */
    _Atomic uint64_t cycles;        /* process cycles run */
    int deaf;                       /* opened, but its process callback never ran */
    clumsy_jack_event ring[CLUMSY_JACK_IN_RING];
} clumsy_jack_input;

static int clumsy_jack_input_process(jack_nframes_t nframes, void *arg) {
    clumsy_jack_input *s = (clumsy_jack_input *)arg;
    void *buffer = jack_port_get_buffer(s->port, nframes);
    jack_nframes_t start = jack_last_frame_time(s->client);
    uint32_t count = jack_midi_get_event_count(buffer);
    uint32_t head = atomic_load_explicit(&s->head, memory_order_relaxed);
    uint32_t tail = atomic_load_explicit(&s->tail, memory_order_acquire);
    for (uint32_t i = 0; i < count; i++) {
        jack_midi_event_t event;
        if (jack_midi_event_get(&event, buffer, i) != 0 || event.size < 1 || event.size > 3) continue;
        if (head - tail >= CLUMSY_JACK_IN_RING) { atomic_fetch_add_explicit(&s->overflowed, 1, memory_order_relaxed); continue; }
        clumsy_jack_event *e = &s->ring[head & (CLUMSY_JACK_IN_RING - 1)];
        e->frame = start + event.time;
        e->port = 0;
        e->size = (uint8_t)event.size;
        e->bytes[0] = event.buffer[0];
        e->bytes[1] = event.size > 1 ? event.buffer[1] : 0;
        e->bytes[2] = event.size > 2 ? event.buffer[2] : 0;
        head++;
    }
    atomic_store_explicit(&s->head, head, memory_order_release);
    atomic_fetch_add_explicit(&s->cycles, 1, memory_order_release);
    return 0;
}

static void clumsy_jack_input_shutdown(void *arg) {
    clumsy_jack_input *s = (clumsy_jack_input *)arg;
    atomic_store_explicit(&s->is_shut_down, 1, memory_order_release);
}

static inline void clumsy_jack_input_close(clumsy_jack_input *s);

/* One attempt of `clumsy_jack_open_input`. */
static inline clumsy_jack_input *clumsy_jack_open_input_once(const char *name, const char *port, int *status) {
    jack_client_t *client = clumsy_jack_open_bare(name, status);
    if (!client) { if (*status == 0) *status = -1; return NULL; }
    *status = 0;
    clumsy_jack_input *s = (clumsy_jack_input *)calloc(1, sizeof(clumsy_jack_input));
    if (!s) { jack_client_close(client); return NULL; }
    s->client = client;
    s->port = jack_port_register(client, port, JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
    jack_set_process_callback(client, clumsy_jack_input_process, s);
    jack_on_shutdown(client, clumsy_jack_input_shutdown, s);
    if (!s->port || jack_activate(client) != 0) { jack_client_close(client); free(s); return NULL; }
    return s;
}

/* Opens client `name` with MIDI input port `port` and activates it, opened again while it is
   deaf (`clumsy_jack_await_cycle`; `deaf` set when the last attempt is). NULL with *status set
   (0 when the server answered but the port or activation failed) on failure. */
static inline clumsy_jack_input *clumsy_jack_open_input(const char *name, const char *port, int *status) {
    char **kept = NULL;   /* connections made to a deaf attempt's port, carried over */
    for (int attempt = 1; ; attempt++) {
        clumsy_jack_input *s = clumsy_jack_open_input_once(name, port, status);
        for (int i = 0; s && kept && kept[i]; i++) jack_connect(s->client, kept[i], jack_port_name(s->port));
        clumsy_jack_free_names(kept);
        kept = NULL;
        if (!s || clumsy_jack_await_cycle(s->client, &s->cycles, &s->is_shut_down)) return s;
        if (attempt == CLUMSY_JACK_OPEN_ATTEMPTS) { s->deaf = !atomic_load_explicit(&s->is_shut_down, memory_order_acquire); return s; }
        kept = clumsy_jack_copy_connections(s->port);
        clumsy_jack_input_close(s);
        clumsy_jack_reopen_pause();
    }
}

/* Takes the oldest message received; returns 0 when there is none. Session thread only. */
static inline int clumsy_jack_input_pop(clumsy_jack_input *s, clumsy_jack_event *out) {
    uint32_t tail = atomic_load_explicit(&s->tail, memory_order_relaxed);
    uint32_t head = atomic_load_explicit(&s->head, memory_order_acquire);
    if (tail == head) return 0;
    *out = s->ring[tail & (CLUMSY_JACK_IN_RING - 1)];
    atomic_store_explicit(&s->tail, tail + 1, memory_order_release);
    return 1;
}

static inline int clumsy_jack_input_is_shut_down(clumsy_jack_input *s) {
    return atomic_load_explicit(&s->is_shut_down, memory_order_acquire);
}

static inline uint64_t clumsy_jack_input_overflowed(clumsy_jack_input *s) { return atomic_load(&s->overflowed); }

/* Process cycles run so far: a server that stops cycling has stalled (`JackLiveness`). */
static inline uint64_t clumsy_jack_input_cycles(clumsy_jack_input *s) { return atomic_load_explicit(&s->cycles, memory_order_acquire); }

static inline const char *clumsy_jack_input_port_name(clumsy_jack_input *s) { return jack_port_name(s->port); }

/* The server's frame time now (an estimate between cycles), and its sample rate. */
static inline jack_nframes_t clumsy_jack_input_frame_time(clumsy_jack_input *s) { return jack_frame_time(s->client); }
static inline jack_nframes_t clumsy_jack_input_sample_rate(clumsy_jack_input *s) { return jack_get_sample_rate(s->client); }

/* Deactivates and closes the client (unless the server is gone) and frees the state. */
static inline void clumsy_jack_input_close(clumsy_jack_input *s) {
    if (!clumsy_jack_input_is_shut_down(s)) jack_deactivate(s->client);
    jack_client_close(s->client);
    free(s);
}

/* JACK transport, read each cycle: a client with no ports whose process callback copies the
   transport's state and position (with the cycle's start frame) into a snapshot the session
   thread reads. The callback takes the lock only when it is free (trylock: it never waits),
   so a cycle the reader overlaps keeps the previous snapshot. It also counts relocations: a
   cycle whose transport frame is not the last one's plus the frames rolled since. */
typedef struct {
    jack_nframes_t cycle;       /* frame time at the start of the cycle */
    jack_nframes_t frame;       /* transport frame at the start of the cycle */
    jack_nframes_t frame_rate;
    int32_t rolling;            /* 1 while JackTransportRolling */
    int32_t has_bbt;            /* a timebase master gives bar, beat and tick */
    int32_t bar, beat, tick;
    double ticks_per_beat, beats_per_bar, beat_type, beats_per_minute;
    uint64_t relocations;       /* frame jumps seen so far */
    uint64_t cycles;
} clumsy_jack_transport_snapshot;

typedef struct {
    jack_client_t *client;
    pthread_mutex_t lock;
    _Atomic int is_shut_down;
    int has_last;
    jack_nframes_t last_frame, last_cycle;
    int32_t last_rolling;
    uint64_t relocations, cycles;
    _Atomic uint64_t cycles_run;    /* `cycles`, for the opening thread to wait on */
    int deaf;                       /* opened, but its process callback never ran */
    clumsy_jack_transport_snapshot snapshot;
} clumsy_jack_transport;

static int clumsy_jack_transport_process(jack_nframes_t nframes, void *arg) {
    (void)nframes;
    clumsy_jack_transport *s = (clumsy_jack_transport *)arg;
    jack_position_t pos;
    jack_transport_state_t state = jack_transport_query(s->client, &pos);
    jack_nframes_t cycle = jack_last_frame_time(s->client);
    int32_t rolling = state == JackTransportRolling;
    if (s->has_last) {
        jack_nframes_t expected = s->last_frame + (s->last_rolling ? cycle - s->last_cycle : 0);
        /* A transport that stops may report the frame it stopped at or the cycle's end. */
        if (pos.frame != expected && !(s->last_rolling && !rolling && pos.frame == s->last_frame)) s->relocations++;
    }
    s->has_last = 1;
    s->last_frame = pos.frame;
    s->last_cycle = cycle;
    s->last_rolling = rolling;
    s->cycles++;
    atomic_store_explicit(&s->cycles_run, s->cycles, memory_order_release);
    if (pthread_mutex_trylock(&s->lock) != 0) return 0;
    clumsy_jack_transport_snapshot *t = &s->snapshot;
    t->cycle = cycle;
    t->frame = pos.frame;
    t->frame_rate = pos.frame_rate;
    t->rolling = rolling;
    t->has_bbt = (pos.valid & JackPositionBBT) != 0 && pos.beats_per_minute > 0 && pos.beats_per_bar > 0
        && pos.beat_type > 0 && pos.ticks_per_beat > 0;
    t->bar = pos.bar;
    t->beat = pos.beat;
    t->tick = pos.tick;
    t->ticks_per_beat = pos.ticks_per_beat;
    t->beats_per_bar = pos.beats_per_bar;
    t->beat_type = pos.beat_type;
    t->beats_per_minute = pos.beats_per_minute;
    t->relocations = s->relocations;
    t->cycles = s->cycles;
    pthread_mutex_unlock(&s->lock);
    return 0;
}

static void clumsy_jack_transport_shutdown(void *arg) {
    clumsy_jack_transport *s = (clumsy_jack_transport *)arg;
    atomic_store_explicit(&s->is_shut_down, 1, memory_order_release);
}

static inline void clumsy_jack_transport_close(clumsy_jack_transport *s);

/* One attempt of `clumsy_jack_open_transport`. */
static inline clumsy_jack_transport *clumsy_jack_open_transport_once(const char *name, int *status) {
    jack_client_t *client = clumsy_jack_open_bare(name, status);
    if (!client) { if (*status == 0) *status = -1; return NULL; }
    *status = 0;
    clumsy_jack_transport *s = (clumsy_jack_transport *)calloc(1, sizeof(clumsy_jack_transport));
    if (!s) { jack_client_close(client); return NULL; }
    s->client = client;
    pthread_mutex_init(&s->lock, NULL);
    jack_set_process_callback(client, clumsy_jack_transport_process, s);
    jack_on_shutdown(client, clumsy_jack_transport_shutdown, s);
    if (jack_activate(client) != 0) { jack_client_close(client); pthread_mutex_destroy(&s->lock); free(s); *status = -1; return NULL; }
    return s;
}

/* Opens client `name` (no ports) reading the transport, activated, opened again while it is
   deaf (`clumsy_jack_await_cycle`; `deaf` set when the last attempt is). NULL with *status set
   on failure (-1 when the server answered but activation failed). */
static inline clumsy_jack_transport *clumsy_jack_open_transport(const char *name, int *status) {
    for (int attempt = 1; ; attempt++) {
        clumsy_jack_transport *s = clumsy_jack_open_transport_once(name, status);
        if (!s || clumsy_jack_await_cycle(s->client, &s->cycles_run, &s->is_shut_down)) return s;
        if (attempt == CLUMSY_JACK_OPEN_ATTEMPTS) { s->deaf = !atomic_load_explicit(&s->is_shut_down, memory_order_acquire); return s; }
        clumsy_jack_transport_close(s);
        clumsy_jack_reopen_pause();
    }
}

/* Copies the last cycle's snapshot; returns 0 before the first cycle. Session thread only. */
static inline int clumsy_jack_transport_read(clumsy_jack_transport *s, clumsy_jack_transport_snapshot *out) {
    pthread_mutex_lock(&s->lock);
    *out = s->snapshot;
    pthread_mutex_unlock(&s->lock);
    return out->cycles > 0;
}

static inline int clumsy_jack_transport_is_shut_down(clumsy_jack_transport *s) {
    return atomic_load_explicit(&s->is_shut_down, memory_order_acquire);
}

/* Process cycles run so far: a server that stops cycling has stalled (`JackLiveness`). */
static inline uint64_t clumsy_jack_transport_cycles(clumsy_jack_transport *s) { return atomic_load_explicit(&s->cycles_run, memory_order_acquire); }

/* The server's frame time now (an estimate between cycles). */
static inline jack_nframes_t clumsy_jack_transport_frame_time(clumsy_jack_transport *s) { return jack_frame_time(s->client); }

static inline void clumsy_jack_transport_close(clumsy_jack_transport *s) {
    if (!clumsy_jack_transport_is_shut_down(s)) jack_deactivate(s->client);
    jack_client_close(s->client);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

#endif
