// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Clumsy's C interface to Ableton Link (Debian's header-only ableton-link-dev, C++): one Link
// instance, its session state read and written from the session thread. Times are Link's
// clock, microseconds (CLOCK_MONOTONIC_RAW on Linux); beats are quarter notes.
#ifndef CLUMSY_LINK_H
#define CLUMSY_LINK_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct clumsy_link clumsy_link;

/// The session state at a time: tempo (quarter notes a minute), the beat there and whether
/// the session plays (start/stop sync).
typedef struct {
    double tempo;
    double beat;
    int playing;
} clumsy_link_state;

/// A Link instance at `bpm`, joined (enabled) with start/stop sync; NULL when it cannot start.
clumsy_link *clumsy_link_create(double bpm);
void clumsy_link_destroy(clumsy_link *link);
/// Other peers in the session.
size_t clumsy_link_peers(clumsy_link *link);
/// Link's clock now, microseconds.
int64_t clumsy_link_micros(clumsy_link *link);
/// The state at `micros`, beats counted in bars of `quantum` beats.
void clumsy_link_capture(clumsy_link *link, int64_t micros, double quantum, clumsy_link_state *out);
/// The time, microseconds, at which the session reaches `beat`.
int64_t clumsy_link_time_at_beat(clumsy_link *link, double beat, double quantum);
/// Proposes `bpm` from `micros` on.
void clumsy_link_set_tempo(clumsy_link *link, double bpm, int64_t micros);
/// Proposes that the session plays (or stops) from `micros`, and, playing, that `beat` falls there.
void clumsy_link_set_playing(clumsy_link *link, int playing, int64_t micros, double beat, double quantum);

#ifdef __cplusplus
}
#endif

#endif
