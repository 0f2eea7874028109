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

/// What plays, for the control output ports (a host shows them): read after every `run`.
typedef struct ClumsyOutputs {
    float degree;    ///< the chord playing: its degree 1…7 (0 without a session)
    float bar;       ///< the bar playing, 1-based (1 before the transport rolls; 0 without a session)
    float section;   ///< the form's section playing, 1-based (its place in the form's letters), 0 without a form
} ClumsyOutputs;

/// Most balls a frame carries: the bass ball and the `balls` port's 1000 piano balls.
#define CLUMSY_FRAME_BALLS 1001
/// A position's quantised value for a ball out of the world.
#define CLUMSY_FRAME_OUT 0xFFFF

/// What the plugin tells an open UI about the world, about 30 times a second (an atom on the
/// notify port: `offsetof(ClumsyFrame, xy) + 4 × count` bytes, 4 KB at most, within what every
/// host passes). Positions are quantised to 16 bits across `box`: a millimetre in a 30 m world.
typedef struct ClumsyFrame {
    float box[4];            ///< min x, min y, max x, max y, metres: the box the positions span
    float beats;             ///< the session's beats since bar 0 (of the host's beat unit)
    float beats_per_bar;
    int32_t degree;          ///< the chord playing: its degree 1…7, 0 before the first
    uint32_t hits;           ///< struck since the last frame: bit d − 1 the bouncer of degree d, bit 16 + k − 1 key k
    uint32_t count;          ///< balls in `xy` (0 the bass ball)
    uint16_t xy[2 * CLUMSY_FRAME_BALLS];   ///< x, y of each ball, 0…65534 across `box`; CLUMSY_FRAME_OUT: out of the world
} ClumsyFrame;

/// The positions of `frame` (for Swift, which sees a C array as a tuple).
static inline uint16_t *clumsy_frame_xy(ClumsyFrame *frame) { return frame->xy; }

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
/// The drop port moved to `place` (0 the piano area's left edge … 1000 its right): the piano
/// ball longest without a key hit drops from the top there at the next step. Real-time safe.
void clumsy_engine_place(void *engine, float place);
/// A UI opened (1) or closed (0): while one is open the engine keeps what a frame needs. Real-time safe.
void clumsy_engine_view(void *engine, int32_t open);
/// Fills *outputs with what plays now (the chord's degree, the bar, the form's section). Real-time safe.
void clumsy_engine_outputs(void *engine, ClumsyOutputs *outputs);
/// Fills *frame with the world as it stands (and forgets the hits it reports); 0 without a session. Real-time safe.
int32_t clumsy_engine_frame(void *engine, ClumsyFrame *frame);

// The UI's drawing (Swift, ClumsyLV2): the world of the plugin's controls, drawn with Cairo
// as `clumsy draw` draws it, its balls where the frames say. Not real-time (the UI's thread).

/// A view of the bundle at `bundle_path` (its presets); NULL on failure.
void *clumsy_view_new(const char *bundle_path);
/// A control port's value (by its index in clumsy.ttl) as the host told the UI.
void clumsy_view_port(void *view, uint32_t index, float value);
/// A frame from the plugin (`size` bytes of a ClumsyFrame): 1 when taken, 0 when a short one is ignored.
int32_t clumsy_view_frame(void *view, const void *frame, uint32_t size);
/// The drop port's value (0…1000 across the piano area) for a click at pixel (x, y) of the
/// last drawing: 1 and *place set when the click is in the piano area, 0 elsewhere.
int32_t clumsy_view_place(void *view, double x, double y, float *place);
/// Draws the view at `width` × `height` pixels; *pixels gets its ARGB32 pixels (native-endian,
/// `*stride` bytes a row, valid until the next call). Returns 0 on success.
int32_t clumsy_view_render(void *view, int32_t width, int32_t height, const uint8_t **pixels, int32_t *stride);
/// Releases the view.
void clumsy_view_free(void *view);

#endif
