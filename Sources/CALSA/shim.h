// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Clumsy's ALSA sequencer shim: wrappers for the macros and inline helpers Swift cannot import.
#ifndef CLUMSY_ALSA_SHIM_H
#define CLUMSY_ALSA_SHIM_H

#include <alsa/asoundlib.h>

static void clumsy_alsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/* Silences alsa-lib's own messages on stderr: Clumsy reports failures in one line. */
static inline void clumsy_alsa_quiet(void) { snd_lib_error_set_handler(clumsy_alsa_silent); }

/* Sends a short MIDI message (1…3 bytes) from `port` to its subscribers, at once. */
static inline int clumsy_seq_send(snd_seq_t *seq, snd_midi_event_t *encoder, int port,
                                  const unsigned char *bytes, long size) {
    snd_seq_event_t ev;
    snd_seq_ev_clear(&ev);
    snd_midi_event_reset_encode(encoder);
    if (snd_midi_event_encode(encoder, bytes, size, &ev) != size || ev.type == SND_SEQ_EVENT_NONE) return -1;
    snd_seq_ev_set_source(&ev, port);
    snd_seq_ev_set_subs(&ev);
    snd_seq_ev_set_direct(&ev);
    return snd_seq_event_output_direct(seq, &ev);
}

/* Encodes a short MIDI message into a sequencer event; returns its type (or -1). */
static inline int clumsy_seq_encode(snd_midi_event_t *encoder, const unsigned char *bytes, long size,
                                    int *channel, int *data1, int *data2) {
    snd_seq_event_t ev;
    snd_seq_ev_clear(&ev);
    snd_midi_event_reset_encode(encoder);
    if (snd_midi_event_encode(encoder, bytes, size, &ev) != size) return -1;
    switch (ev.type) {
    case SND_SEQ_EVENT_NOTEON: case SND_SEQ_EVENT_NOTEOFF:
        *channel = ev.data.note.channel; *data1 = ev.data.note.note; *data2 = ev.data.note.velocity; break;
    case SND_SEQ_EVENT_CONTROLLER: case SND_SEQ_EVENT_PGMCHANGE:
        *channel = ev.data.control.channel; *data1 = (int)ev.data.control.param; *data2 = ev.data.control.value; break;
    default:
        *channel = -1; *data1 = 0; *data2 = 0;
    }
    return ev.type;
}

/* Decodes a sequencer event into a whole MIDI message (status byte always written, no
   running status); returns its length, or <= 0 when the event is no MIDI message. */
static inline long clumsy_seq_decode(snd_midi_event_t *decoder, const snd_seq_event_t *ev,
                                     unsigned char *bytes, long max) {
    snd_midi_event_reset_decode(decoder);
    snd_midi_event_no_status(decoder, 1);
    return snd_midi_event_decode(decoder, bytes, max, ev);
}

/* Encodes `size` bytes into an event and decodes it again, as a message sent by another
   client reaches an input port: needs no sequencer. Returns the decoded length, or -1. */
static inline long clumsy_seq_round_trip(snd_midi_event_t *encoder, snd_midi_event_t *decoder,
                                         const unsigned char *bytes, long size, unsigned char *out, long max) {
    snd_seq_event_t ev;
    snd_seq_ev_clear(&ev);
    snd_midi_event_reset_encode(encoder);
    if (snd_midi_event_encode(encoder, bytes, size, &ev) != size || ev.type == SND_SEQ_EVENT_NONE) return -1;
    return clumsy_seq_decode(decoder, &ev, out, max);
}

/* A writable, subscribable port whose incoming events the queue `queue` stamps in real
   time (as arecordmidi stamps its own); returns the port number, or a negative error. */
static inline int clumsy_seq_create_input_port(snd_seq_t *seq, const char *name, int queue) {
    snd_seq_port_info_t *info;
    snd_seq_port_info_alloca(&info);
    snd_seq_port_info_set_name(info, name);
    snd_seq_port_info_set_capability(info, SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE);
    snd_seq_port_info_set_type(info, SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
    snd_seq_port_info_set_timestamping(info, 1);
    snd_seq_port_info_set_timestamp_real(info, 1);
    snd_seq_port_info_set_timestamp_queue(info, queue);
    int result = snd_seq_create_port(seq, info);
    return result < 0 ? result : snd_seq_port_info_get_port(info);
}

/* Starts `queue` now. */
static inline int clumsy_seq_start_queue(snd_seq_t *seq, int queue) {
    int result = snd_seq_start_queue(seq, queue, NULL);
    return result < 0 ? result : snd_seq_drain_output(seq);
}

/* The real time of `queue` now, in microseconds (or -1). */
static inline long long clumsy_seq_queue_micros(snd_seq_t *seq, int queue) {
    snd_seq_queue_status_t *status;
    snd_seq_queue_status_alloca(&status);
    if (snd_seq_get_queue_status(seq, queue, status) < 0) return -1;
    const snd_seq_real_time_t *time = snd_seq_queue_status_get_real_time(status);
    return (long long)time->tv_sec * 1000000 + time->tv_nsec / 1000;
}

/* The client whose name is exactly `name` (or whose number it is); -1 when there is none.
   (alsa-lib's own parser takes a client name as a prefix, and a port only by number.) */
static inline int clumsy_seq_find_client(snd_seq_t *seq, const char *name) {
    char *end = NULL;
    long number = strtol(name, &end, 10);
    if (end != name && *end == '\0') return number >= 0 && number < 256 ? (int)number : -1;
    snd_seq_client_info_t *info;
    snd_seq_client_info_alloca(&info);
    snd_seq_client_info_set_client(info, -1);
    while (snd_seq_query_next_client(seq, info) >= 0) {
        if (strcmp(snd_seq_client_info_get_name(info), name) == 0) return snd_seq_client_info_get_client(info);
    }
    return -1;
}

/* The port of `client` whose name is exactly `name` (or whose number it is); -1 when none. */
static inline int clumsy_seq_find_port(snd_seq_t *seq, int client, const char *name) {
    char *end = NULL;
    long number = strtol(name, &end, 10);
    if (end != name && *end == '\0') return number >= 0 && number < 256 ? (int)number : -1;
    snd_seq_port_info_t *info;
    snd_seq_port_info_alloca(&info);
    snd_seq_port_info_set_client(info, client);
    snd_seq_port_info_set_port(info, -1);
    while (snd_seq_query_next_port(seq, info) >= 0) {
        if (strcmp(snd_seq_port_info_get_name(info), name) == 0) return snd_seq_port_info_get_port(info);
    }
    return -1;
}

/* Subscribes `port` to the output `address`: "client:port", each an exact name or a number
   (split at the last colon, so a client name may hold one). Returns 0, -ENOENT when there is
   no such client or port, or ALSA's error. */
static inline int clumsy_seq_connect_from(snd_seq_t *seq, int port, const char *address) {
    const char *colon = strrchr(address, ':');
    if (colon == NULL || colon == address || colon[1] == '\0') return -EINVAL;
    size_t length = (size_t)(colon - address);
    char client_name[128];
    if (length >= sizeof client_name) return -ENOENT;
    memcpy(client_name, address, length);
    client_name[length] = '\0';
    int client = clumsy_seq_find_client(seq, client_name);
    if (client < 0) return -ENOENT;
    int source = clumsy_seq_find_port(seq, client, colon + 1);
    if (source < 0) return -ENOENT;
    return snd_seq_connect_from(seq, port, client, source);
}

/* Takes the next pending event without waiting, decoded into `bytes`: its length (0 when
   none is pending, negative on an error) and its real-time stamp in microseconds (-1 when
   it carries none). Events that are no MIDI message (announcements) are passed over; a
   lost-events overrun is counted in `overruns`. */
static inline long clumsy_seq_receive(snd_seq_t *seq, snd_midi_event_t *decoder, unsigned char *bytes, long max,
                                      long long *micros, unsigned long long *overruns) {
    for (;;) {
        snd_seq_event_t *ev = NULL;
        int result = snd_seq_event_input(seq, &ev);
        if (result == -EAGAIN) return 0;
        if (result == -ENOSPC) { *overruns += 1; continue; }
        if (result < 0) return result;
        if (ev == NULL) continue;
        long size = clumsy_seq_decode(decoder, ev, bytes, max);
        if (size <= 0) continue;
        *micros = (ev->flags & SND_SEQ_TIME_STAMP_MASK) == SND_SEQ_TIME_STAMP_REAL
            ? (long long)ev->time.time.tv_sec * 1000000 + ev->time.time.tv_nsec / 1000 : -1;
        return size;
    }
}

static inline int clumsy_seq_open_duplex(void) { return SND_SEQ_OPEN_DUPLEX; }
static inline int clumsy_seq_nonblock(void) { return SND_SEQ_NONBLOCK; }

static inline int clumsy_seq_noteon(void) { return SND_SEQ_EVENT_NOTEON; }
static inline int clumsy_seq_noteoff(void) { return SND_SEQ_EVENT_NOTEOFF; }
static inline int clumsy_seq_clock(void) { return SND_SEQ_EVENT_CLOCK; }
static inline int clumsy_seq_start(void) { return SND_SEQ_EVENT_START; }
static inline int clumsy_seq_stop(void) { return SND_SEQ_EVENT_STOP; }
static inline unsigned int clumsy_seq_readable_caps(void) { return SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ; }
static inline unsigned int clumsy_seq_port_type(void) { return SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION; }

#endif
