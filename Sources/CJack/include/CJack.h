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

/* Opens a bare client (never starting a server, not activated). Returns NULL and sets
   *status on failure. libjack's own chatter on stderr is silenced, also the lines it prints
   straight to stderr when no server answers: Clumsy reports failures in one line. */
jack_client_t *clumsy_jack_open_bare(const char *name, int *status);

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
int clumsy_jack_await_cycle(jack_client_t *client, _Atomic uint64_t *cycles, _Atomic int *shut_down);

/* The pause before a deaf client is opened again. */
void clumsy_jack_reopen_pause(void);

/* A copy of the names of the ports connected to `port`, NULL-terminated (NULL when none), for
   `clumsy_jack_free_names`. A copy: libjack's own list points into the server's shared memory,
   which the process's last client takes with it when it closes. */
char **clumsy_jack_copy_connections(jack_port_t *port);

void clumsy_jack_free_names(char **names);

/* Opens a client with MIDI output ports to come (never starting a server). Returns NULL and
   sets *status on failure. */
clumsy_jack_state *clumsy_jack_open(const char *name, int *status);

/* Registers a MIDI output port; returns its index or -1. Only before activation. */
int clumsy_jack_add_port(clumsy_jack_state *s, const char *name);

/* Queues one event (1…3 bytes). Returns 0 when the ring is full. Producer thread only. */
int clumsy_jack_push(clumsy_jack_state *s, jack_nframes_t frame, int port, int size,
                     uint8_t b0, uint8_t b1, uint8_t b2);

/* Events queued and not yet delivered. */
uint32_t clumsy_jack_pending(clumsy_jack_state *s);

int clumsy_jack_is_shut_down(clumsy_jack_state *s);

uint64_t clumsy_jack_delivered(clumsy_jack_state *s);
uint64_t clumsy_jack_late(clumsy_jack_state *s);
uint64_t clumsy_jack_dropped(clumsy_jack_state *s);
int64_t clumsy_jack_worst_late(clumsy_jack_state *s);

uint64_t clumsy_jack_cycles(clumsy_jack_state *s);

/* After activation: 1 when the process callback has run, 0 when the client is deaf
   (`clumsy_jack_await_cycle`). */
int clumsy_jack_ran_first_cycle(clumsy_jack_state *s);

jack_port_t *clumsy_jack_port(clumsy_jack_state *s, int index);

/* Closes the client (unless the server is gone) and frees the state. */
void clumsy_jack_close(clumsy_jack_state *s, int deactivate);

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

/* One attempt of `clumsy_jack_open_input`. */
clumsy_jack_input *clumsy_jack_open_input_once(const char *name, const char *port, int *status);

/* Opens client `name` with MIDI input port `port` and activates it, opened again while it is
   deaf (`clumsy_jack_await_cycle`; `deaf` set when the last attempt is). NULL with *status set
   (0 when the server answered but the port or activation failed) on failure. */
clumsy_jack_input *clumsy_jack_open_input(const char *name, const char *port, int *status);

/* Takes the oldest message received; returns 0 when there is none. Session thread only. */
int clumsy_jack_input_pop(clumsy_jack_input *s, clumsy_jack_event *out);

int clumsy_jack_input_is_shut_down(clumsy_jack_input *s);

uint64_t clumsy_jack_input_overflowed(clumsy_jack_input *s);

/* Process cycles run so far: a server that stops cycling has stalled (`JackLiveness`). */
uint64_t clumsy_jack_input_cycles(clumsy_jack_input *s);

const char *clumsy_jack_input_port_name(clumsy_jack_input *s);

/* The server's frame time now (an estimate between cycles), and its sample rate. */
jack_nframes_t clumsy_jack_input_frame_time(clumsy_jack_input *s);
jack_nframes_t clumsy_jack_input_sample_rate(clumsy_jack_input *s);

/* Deactivates and closes the client (unless the server is gone) and frees the state. */
void clumsy_jack_input_close(clumsy_jack_input *s);

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

/* One attempt of `clumsy_jack_open_transport`. */
clumsy_jack_transport *clumsy_jack_open_transport_once(const char *name, int *status);

/* Opens client `name` (no ports) reading the transport, activated, opened again while it is
   deaf (`clumsy_jack_await_cycle`; `deaf` set when the last attempt is). NULL with *status set
   on failure (-1 when the server answered but activation failed). */
clumsy_jack_transport *clumsy_jack_open_transport(const char *name, int *status);

/* Copies the last cycle's snapshot; returns 0 before the first cycle. Session thread only. */
int clumsy_jack_transport_read(clumsy_jack_transport *s, clumsy_jack_transport_snapshot *out);

int clumsy_jack_transport_is_shut_down(clumsy_jack_transport *s);

/* Process cycles run so far: a server that stops cycling has stalled (`JackLiveness`). */
uint64_t clumsy_jack_transport_cycles(clumsy_jack_transport *s);

/* The server's frame time now (an estimate between cycles). */
jack_nframes_t clumsy_jack_transport_frame_time(clumsy_jack_transport *s);

void clumsy_jack_transport_close(clumsy_jack_transport *s);

#endif
