// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Clumsy's ALSA sequencer shim: wrappers for the macros and inline helpers Swift cannot import.
#ifndef CLUMSY_ALSA_SHIM_H
#define CLUMSY_ALSA_SHIM_H

#include <alsa/asoundlib.h>

/* Silences alsa-lib's own messages on stderr: Clumsy reports failures in one line. */
void clumsy_alsa_quiet(void);

/* Sends a short MIDI message (1…3 bytes) from `port` to its subscribers, at once. */
int clumsy_seq_send(snd_seq_t *seq, snd_midi_event_t *encoder, int port,
                    const unsigned char *bytes, long size);

/* Encodes a short MIDI message into a sequencer event; returns its type (or -1). */
int clumsy_seq_encode(snd_midi_event_t *encoder, const unsigned char *bytes, long size,
                      int *channel, int *data1, int *data2);

/* Decodes a sequencer event into a whole MIDI message (status byte always written, no
   running status); returns its length, or <= 0 when the event is no MIDI message. */
long clumsy_seq_decode(snd_midi_event_t *decoder, const snd_seq_event_t *ev,
                       unsigned char *bytes, long max);

/* Encodes `size` bytes into an event and decodes it again, as a message sent by another
   client reaches an input port: needs no sequencer. Returns the decoded length, or -1. */
long clumsy_seq_round_trip(snd_midi_event_t *encoder, snd_midi_event_t *decoder,
                           const unsigned char *bytes, long size, unsigned char *out, long max);

/* A writable, subscribable port whose incoming events the queue `queue` stamps in real
   time (as arecordmidi stamps its own); returns the port number, or a negative error. */
int clumsy_seq_create_input_port(snd_seq_t *seq, const char *name, int queue);

/* Starts `queue` now. */
int clumsy_seq_start_queue(snd_seq_t *seq, int queue);

/* The real time of `queue` now, in microseconds (or -1). */
long long clumsy_seq_queue_micros(snd_seq_t *seq, int queue);

/* The client whose name is exactly `name` (or whose number it is); -1 when there is none.
   (alsa-lib's own parser takes a client name as a prefix, and a port only by number.) */
int clumsy_seq_find_client(snd_seq_t *seq, const char *name);

/* The port of `client` whose name is exactly `name` (or whose number it is); -1 when none. */
int clumsy_seq_find_port(snd_seq_t *seq, int client, const char *name);

/* Subscribes `port` to the output `address`: "client:port", each an exact name or a number
   (split at the last colon, so a client name may hold one). Returns 0, -ENOENT when there is
   no such client or port, or ALSA's error. */
int clumsy_seq_connect_from(snd_seq_t *seq, int port, const char *address);

/* Takes the next pending event without waiting, decoded into `bytes`: its length (0 when
   none is pending, negative on an error) and its real-time stamp in microseconds (-1 when
   it carries none). Events that are no MIDI message (announcements) are passed over; a
   lost-events overrun is counted in `overruns`. */
long clumsy_seq_receive(snd_seq_t *seq, snd_midi_event_t *decoder, unsigned char *bytes, long max,
                        long long *micros, unsigned long long *overruns);

int clumsy_seq_open_duplex(void);
int clumsy_seq_nonblock(void);

int clumsy_seq_noteon(void);
int clumsy_seq_noteoff(void);
int clumsy_seq_clock(void);
int clumsy_seq_start(void);
int clumsy_seq_stop(void);
unsigned int clumsy_seq_readable_caps(void);
unsigned int clumsy_seq_port_type(void);

#endif
