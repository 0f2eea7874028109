// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "CALSA.h"

static void clumsy_alsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void clumsy_alsa_quiet(void) { snd_lib_error_set_handler(clumsy_alsa_silent); }

int clumsy_seq_send(snd_seq_t *seq, snd_midi_event_t *encoder, int port,
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

int clumsy_seq_encode(snd_midi_event_t *encoder, const unsigned char *bytes, long size,
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

long clumsy_seq_decode(snd_midi_event_t *decoder, const snd_seq_event_t *ev,
                       unsigned char *bytes, long max) {
    snd_midi_event_reset_decode(decoder);
    snd_midi_event_no_status(decoder, 1);
    return snd_midi_event_decode(decoder, bytes, max, ev);
}

long clumsy_seq_round_trip(snd_midi_event_t *encoder, snd_midi_event_t *decoder,
                           const unsigned char *bytes, long size, unsigned char *out, long max) {
    snd_seq_event_t ev;
    snd_seq_ev_clear(&ev);
    snd_midi_event_reset_encode(encoder);
    if (snd_midi_event_encode(encoder, bytes, size, &ev) != size || ev.type == SND_SEQ_EVENT_NONE) return -1;
    return clumsy_seq_decode(decoder, &ev, out, max);
}

int clumsy_seq_create_input_port(snd_seq_t *seq, const char *name, int queue) {
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

int clumsy_seq_start_queue(snd_seq_t *seq, int queue) {
    int result = snd_seq_start_queue(seq, queue, NULL);
    return result < 0 ? result : snd_seq_drain_output(seq);
}

long long clumsy_seq_queue_micros(snd_seq_t *seq, int queue) {
    snd_seq_queue_status_t *status;
    snd_seq_queue_status_alloca(&status);
    if (snd_seq_get_queue_status(seq, queue, status) < 0) return -1;
    const snd_seq_real_time_t *time = snd_seq_queue_status_get_real_time(status);
    return (long long)time->tv_sec * 1000000 + time->tv_nsec / 1000;
}

int clumsy_seq_find_client(snd_seq_t *seq, const char *name) {
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

int clumsy_seq_find_port(snd_seq_t *seq, int client, const char *name) {
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

int clumsy_seq_connect_from(snd_seq_t *seq, int port, const char *address) {
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

long clumsy_seq_receive(snd_seq_t *seq, snd_midi_event_t *decoder, unsigned char *bytes, long max,
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

int clumsy_seq_open_duplex(void) { return SND_SEQ_OPEN_DUPLEX; }

int clumsy_seq_nonblock(void) { return SND_SEQ_NONBLOCK; }

int clumsy_seq_noteon(void) { return SND_SEQ_EVENT_NOTEON; }

int clumsy_seq_noteoff(void) { return SND_SEQ_EVENT_NOTEOFF; }

int clumsy_seq_clock(void) { return SND_SEQ_EVENT_CLOCK; }

int clumsy_seq_start(void) { return SND_SEQ_EVENT_START; }

int clumsy_seq_stop(void) { return SND_SEQ_EVENT_STOP; }

unsigned int clumsy_seq_readable_caps(void) { return SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ; }

unsigned int clumsy_seq_port_type(void) { return SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION; }
