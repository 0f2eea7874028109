// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "CJack.h"

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

jack_client_t *clumsy_jack_open_bare(const char *name, int *status) {
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

int clumsy_jack_await_cycle(jack_client_t *client, _Atomic uint64_t *cycles, _Atomic int *shut_down) {
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

void clumsy_jack_reopen_pause(void) {
    const struct timespec pause = {0, CLUMSY_JACK_REOPEN_PAUSE_MS * 1000000L};
    nanosleep(&pause, NULL);
}

char **clumsy_jack_copy_connections(jack_port_t *port) {
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

void clumsy_jack_free_names(char **names) {
    if (!names) return;
    for (int i = 0; names[i]; i++) free(names[i]);
    free(names);
}

clumsy_jack_state *clumsy_jack_open(const char *name, int *status) {
    jack_client_t *client = clumsy_jack_open_bare(name, status);
    if (!client) return NULL;
    clumsy_jack_state *s = (clumsy_jack_state *)calloc(1, sizeof(clumsy_jack_state));
    if (!s) { jack_client_close(client); return NULL; }
    s->client = client;
    jack_set_process_callback(client, clumsy_jack_process, s);
    jack_on_shutdown(client, clumsy_jack_shutdown, s);
    return s;
}

int clumsy_jack_add_port(clumsy_jack_state *s, const char *name) {
    if (s->port_count >= CLUMSY_JACK_PORTS) return -1;
    jack_port_t *port = jack_port_register(s->client, name, JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
    if (!port) return -1;
    s->ports[s->port_count] = port;
    return s->port_count++;
}

int clumsy_jack_push(clumsy_jack_state *s, jack_nframes_t frame, int port, int size,
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

uint32_t clumsy_jack_pending(clumsy_jack_state *s) {
    return atomic_load_explicit(&s->head, memory_order_acquire) - atomic_load_explicit(&s->tail, memory_order_acquire);
}

int clumsy_jack_is_shut_down(clumsy_jack_state *s) {
    return atomic_load_explicit(&s->is_shut_down, memory_order_acquire);
}

uint64_t clumsy_jack_delivered(clumsy_jack_state *s) { return atomic_load(&s->delivered); }

uint64_t clumsy_jack_late(clumsy_jack_state *s) { return atomic_load(&s->late); }

uint64_t clumsy_jack_dropped(clumsy_jack_state *s) { return atomic_load(&s->dropped); }

int64_t clumsy_jack_worst_late(clumsy_jack_state *s) { return atomic_load(&s->worst_late); }

uint64_t clumsy_jack_cycles(clumsy_jack_state *s) { return atomic_load_explicit(&s->cycles, memory_order_acquire); }

int clumsy_jack_ran_first_cycle(clumsy_jack_state *s) { return clumsy_jack_await_cycle(s->client, &s->cycles, &s->is_shut_down); }

jack_port_t *clumsy_jack_port(clumsy_jack_state *s, int index) { return s->ports[index]; }

void clumsy_jack_close(clumsy_jack_state *s, int deactivate) {
    if (deactivate) jack_deactivate(s->client);
    jack_client_close(s->client);
    free(s);
}

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

clumsy_jack_input *clumsy_jack_open_input_once(const char *name, const char *port, int *status) {
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

clumsy_jack_input *clumsy_jack_open_input(const char *name, const char *port, int *status) {
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

int clumsy_jack_input_pop(clumsy_jack_input *s, clumsy_jack_event *out) {
    uint32_t tail = atomic_load_explicit(&s->tail, memory_order_relaxed);
    uint32_t head = atomic_load_explicit(&s->head, memory_order_acquire);
    if (tail == head) return 0;
    *out = s->ring[tail & (CLUMSY_JACK_IN_RING - 1)];
    atomic_store_explicit(&s->tail, tail + 1, memory_order_release);
    return 1;
}

int clumsy_jack_input_is_shut_down(clumsy_jack_input *s) {
    return atomic_load_explicit(&s->is_shut_down, memory_order_acquire);
}

uint64_t clumsy_jack_input_overflowed(clumsy_jack_input *s) { return atomic_load(&s->overflowed); }

uint64_t clumsy_jack_input_cycles(clumsy_jack_input *s) { return atomic_load_explicit(&s->cycles, memory_order_acquire); }

const char *clumsy_jack_input_port_name(clumsy_jack_input *s) { return jack_port_name(s->port); }

jack_nframes_t clumsy_jack_input_frame_time(clumsy_jack_input *s) { return jack_frame_time(s->client); }

jack_nframes_t clumsy_jack_input_sample_rate(clumsy_jack_input *s) { return jack_get_sample_rate(s->client); }

void clumsy_jack_input_close(clumsy_jack_input *s) {
    if (!clumsy_jack_input_is_shut_down(s)) jack_deactivate(s->client);
    jack_client_close(s->client);
    free(s);
}

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

clumsy_jack_transport *clumsy_jack_open_transport_once(const char *name, int *status) {
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

clumsy_jack_transport *clumsy_jack_open_transport(const char *name, int *status) {
    for (int attempt = 1; ; attempt++) {
        clumsy_jack_transport *s = clumsy_jack_open_transport_once(name, status);
        if (!s || clumsy_jack_await_cycle(s->client, &s->cycles_run, &s->is_shut_down)) return s;
        if (attempt == CLUMSY_JACK_OPEN_ATTEMPTS) { s->deaf = !atomic_load_explicit(&s->is_shut_down, memory_order_acquire); return s; }
        clumsy_jack_transport_close(s);
        clumsy_jack_reopen_pause();
    }
}

int clumsy_jack_transport_read(clumsy_jack_transport *s, clumsy_jack_transport_snapshot *out) {
    pthread_mutex_lock(&s->lock);
    *out = s->snapshot;
    pthread_mutex_unlock(&s->lock);
    return out->cycles > 0;
}

int clumsy_jack_transport_is_shut_down(clumsy_jack_transport *s) {
    return atomic_load_explicit(&s->is_shut_down, memory_order_acquire);
}

uint64_t clumsy_jack_transport_cycles(clumsy_jack_transport *s) { return atomic_load_explicit(&s->cycles_run, memory_order_acquire); }

jack_nframes_t clumsy_jack_transport_frame_time(clumsy_jack_transport *s) { return jack_frame_time(s->client); }

void clumsy_jack_transport_close(clumsy_jack_transport *s) {
    if (!clumsy_jack_transport_is_shut_down(s)) jack_deactivate(s->client);
    jack_client_close(s->client);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
