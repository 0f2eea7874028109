// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The line between the LV2 shim (C: the descriptor, URIDs, atoms) and the engine (Swift:
// the simulator stepped in the host's time). No LV2 type crosses it.
#ifndef CLUMSY_LV2_H
#define CLUMSY_LV2_H

#include <stdint.h>

/// One short MIDI message at a frame of the block being run.
typedef struct ClumsyMIDI {
    uint32_t frame;     ///< offset in the block, frames
    uint8_t size;       ///< 1…3
    uint8_t bytes[3];
} ClumsyMIDI;

/// The host's transport (an LV2 time:Position); a `has_*` of 0 means the field was absent.
typedef struct ClumsyTransport {
    double bpm;           ///< beats per minute
    double bar;           ///< bar number, 0-based
    double bar_beat;      ///< beat within the bar, 0-based, fractional
    double beats_per_bar;
    double beat_unit;     ///< 4 for x/4, 8 for x/8
    double speed;         ///< 0 stopped, 1 rolling
    double frame;         ///< the transport's frame (its timeline, not the block's)
    int32_t has_bpm, has_bar, has_bar_beat, has_beats_per_bar, has_beat_unit, has_speed, has_frame;
} ClumsyTransport;

/// The control ports' values, read at the start of every `run`.
typedef struct ClumsyControls {
    float preset;        ///< index into the bundle's presets.txt
    float seed;          ///< 0: the preset's own
    float gravity;       ///< m/s²; below 0: the preset's own
    float speed;         ///< m/s; 0: the preset's own
    float key;           ///< tonic 0…11 (C…B); below 0: the preset's own
    float mode;          ///< index into clumsy_port_choices("mode"); below 0: the preset's own
    float quantize;      ///< index into clumsy_port_choices("quantize"); below 0: the preset's own
    float swing;         ///< 0…0.75; below 0: the preset's own
    float balls;         ///< piano balls; below 0: the preset's own
    float bass_channel;  ///< MIDI channel 1…16 of the bass; 0: the preset's own
    float keys_channel;  ///< MIDI channel 1…16 of the keys (every pan zone); 0: the preset's own
} ClumsyControls;

/// A rebuild for the worker thread: the host's position in beats since bar 0, its tempo, and
/// the controls to build the session with (a relocation, or a control that needs a rebuild).
typedef struct ClumsySeek {
    double beats;
    double bpm;
    ClumsyControls controls;
} ClumsySeek;

// Implemented in Swift (ClumsyLV2, `@_cdecl`).

/// Reads the bundle (its presets) at `bundle_path` for a host running at `sample_rate`; NULL on failure.
void *clumsy_engine_new(const char *bundle_path, double sample_rate);
/// Builds the session of `controls` (not real-time: allocates). Returns 0 on success.
int32_t clumsy_engine_activate(void *engine, const ClumsyControls *controls);
/// The host's transport changed at frame `offset` of the block (after the frames before it ran).
void clumsy_engine_transport(void *engine, uint32_t offset, const ClumsyTransport *transport);
/// Control port values for the next steps (gravity and speed take effect at the next step).
void clumsy_engine_controls(void *engine, const ClumsyControls *controls);
/// Runs `frames` frames (possibly 0: only what a transport change ended) starting at `offset` in the block; writes at most `capacity` messages
/// (frames relative to the block, in order) and returns how many. Real-time safe.
uint32_t clumsy_engine_process(void *engine, uint32_t offset, uint32_t frames, ClumsyMIDI *out, uint32_t capacity);
/// A relocation to schedule on the worker, once: 1 and *seek filled, or 0. Real-time safe.
int32_t clumsy_engine_take_seek(void *engine, ClumsySeek *seek);
/// Worker thread: builds the session again and simulates it to *seek (not real-time).
void clumsy_engine_prepare(void *engine, const ClumsySeek *seek);
/// Audio thread, between two runs: adopts what `clumsy_engine_prepare` made. Real-time safe.
void clumsy_engine_adopt(void *engine);
/// MIDI bytes from the host at frame `offset` of the block (after the frames before it ran). Real-time safe.
void clumsy_engine_midi(void *engine, uint32_t offset, const uint8_t *bytes, uint32_t size);
/// The choices of an enumerated port ("key", "mode", "quantize"), one a line, in the port's
/// order (value 0 first); NULL for another name. For the bundle's Turtle (Tools/lv2bundle.py).
const char *clumsy_port_choices(const char *port);
/// Releases the engine.
void clumsy_engine_free(void *engine);

#endif
