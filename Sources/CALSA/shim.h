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

static inline int clumsy_seq_noteon(void) { return SND_SEQ_EVENT_NOTEON; }
static inline int clumsy_seq_noteoff(void) { return SND_SEQ_EVENT_NOTEOFF; }
static inline int clumsy_seq_clock(void) { return SND_SEQ_EVENT_CLOCK; }
static inline int clumsy_seq_start(void) { return SND_SEQ_EVENT_START; }
static inline int clumsy_seq_stop(void) { return SND_SEQ_EVENT_STOP; }
static inline unsigned int clumsy_seq_readable_caps(void) { return SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ; }
static inline unsigned int clumsy_seq_port_type(void) { return SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION; }

#endif
