// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// clumsy.lv2: the LV2 side of the plugin. It owns everything LV2 (the descriptor, URID
// mapping, port buffers, reading time:Position and writing MIDI atoms with the forge) and
// hands plain values to the Swift engine (clumsy_lv2.h). Nothing here allocates in run().
#include "clumsy_lv2.h"

#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/core/lv2_util.h>
#include <lv2/midi/midi.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CLUMSY_URI "urn:clumsy:lv2"
#define CLUMSY_BLOCK_MESSAGES 4096
/// Frames a second an open UI is sent (its drawing runs at the host's rate, about 30).
#define CLUMSY_FRAMES_PER_SECOND 30

// The ports, in lv2:index order (Tools/lv2bundle.py writes the same order).
enum {
    PORT_CONTROL = 0, PORT_MIDI_OUT, PORT_PRESET, PORT_SEED, PORT_GRAVITY, PORT_SPEED,
    PORT_KEY, PORT_MODE, PORT_QUANTIZE, PORT_SWING, PORT_BALLS, PORT_BASS_CHANNEL, PORT_KEYS_CHANNEL,
    PORT_NOTIFY, PORT_DROP,
    // Control outputs (after every older port, so a host's saved session keeps its indices):
    // what plays, for a host to show.
    PORT_DEGREE, PORT_BAR, PORT_SECTION, PORT_COUNT
};

typedef struct {
    LV2_URID atom_Blank, atom_Object, atom_Float, atom_Double, atom_Int, atom_Long, midi_MidiEvent;
    LV2_URID atom_Chunk, clumsy_Frame, clumsy_frame, clumsy_uiOn, clumsy_uiOff;
    LV2_URID time_Position, time_bar, time_barBeat, time_beatsPerBar, time_beatUnit, time_beatsPerMinute, time_speed, time_frame;
} URIs;

typedef struct {
    LV2_URID_Map *map;
    LV2_Worker_Schedule *schedule;   // NULL when the host has no worker: rebuilds then run inside run()
    URIs uris;
    LV2_Atom_Forge forge;
    const LV2_Atom_Sequence *control;
    LV2_Atom_Sequence *out;
    LV2_Atom_Sequence *notify;   // frames for an open UI (ui.c); may be unconnected
    int32_t view_open;
    float last_drop;   // the drop port as last read: a change to 0…1000 drops a ball there
    uint32_t since_frame, frame_interval;
    ClumsyFrame frame;
    const float *ports[PORT_COUNT];
    float *outputs[3];   // degree, bar, section (PORT_DEGREE…); each may be unconnected
    void *engine;
    ClumsyMIDI messages[CLUMSY_BLOCK_MESSAGES];
} Plugin;

static void map_uris(LV2_URID_Map *map, URIs *u) {
    u->atom_Blank = map->map(map->handle, LV2_ATOM__Blank);
    u->atom_Object = map->map(map->handle, LV2_ATOM__Object);
    u->atom_Float = map->map(map->handle, LV2_ATOM__Float);
    u->atom_Double = map->map(map->handle, LV2_ATOM__Double);
    u->atom_Int = map->map(map->handle, LV2_ATOM__Int);
    u->atom_Long = map->map(map->handle, LV2_ATOM__Long);
    u->midi_MidiEvent = map->map(map->handle, LV2_MIDI__MidiEvent);
    u->atom_Chunk = map->map(map->handle, LV2_ATOM__Chunk);
    u->clumsy_Frame = map->map(map->handle, CLUMSY_URI "#Frame");
    u->clumsy_frame = map->map(map->handle, CLUMSY_URI "#frame");
    u->clumsy_uiOn = map->map(map->handle, CLUMSY_URI "#uiOn");
    u->clumsy_uiOff = map->map(map->handle, CLUMSY_URI "#uiOff");
    u->time_Position = map->map(map->handle, LV2_TIME__Position);
    u->time_bar = map->map(map->handle, LV2_TIME__bar);
    u->time_barBeat = map->map(map->handle, LV2_TIME__barBeat);
    u->time_beatsPerBar = map->map(map->handle, LV2_TIME__beatsPerBar);
    u->time_beatUnit = map->map(map->handle, LV2_TIME__beatUnit);
    u->time_beatsPerMinute = map->map(map->handle, LV2_TIME__beatsPerMinute);
    u->time_speed = map->map(map->handle, LV2_TIME__speed);
    u->time_frame = map->map(map->handle, LV2_TIME__frame);
}

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle_path,
                              const LV2_Feature *const *features) {
    (void)descriptor;
    LV2_URID_Map *map = NULL;
    LV2_Worker_Schedule *schedule = NULL;
    const char *missing = lv2_features_query(features, LV2_URID__map, &map, true,
                                             LV2_WORKER__schedule, &schedule, false, NULL);
    if (missing) return NULL;
    Plugin *self = calloc(1, sizeof(Plugin));
    if (!self) return NULL;
    self->map = map;
    self->schedule = schedule;
    map_uris(map, &self->uris);
    lv2_atom_forge_init(&self->forge, map);
    self->frame_interval = (uint32_t)(rate / CLUMSY_FRAMES_PER_SECOND);
    self->engine = clumsy_engine_new(bundle_path, rate);
    if (!self->engine) {
        free(self);
        return NULL;
    }
    return self;
}

static void connect_port(LV2_Handle instance, uint32_t port, void *data) {
    Plugin *self = instance;
    switch (port) {
    case PORT_CONTROL: self->control = data; break;
    case PORT_MIDI_OUT: self->out = data; break;
    case PORT_NOTIFY: self->notify = data; break;
    case PORT_DEGREE: case PORT_BAR: case PORT_SECTION: self->outputs[port - PORT_DEGREE] = data; break;
    default:
        if (port < PORT_COUNT) self->ports[port] = data;
        break;
    }
}

/// A control port's value, or `otherwise` (its "preset's own") when the host left it unconnected.
static float port(const Plugin *self, int index, float otherwise) {
    return self->ports[index] ? *self->ports[index] : otherwise;
}

static ClumsyControls read_controls(const Plugin *self) {
    ClumsyControls c;
    c.preset = port(self, PORT_PRESET, 0);
    c.seed = port(self, PORT_SEED, 0);
    c.gravity = port(self, PORT_GRAVITY, -1);
    c.speed = port(self, PORT_SPEED, 0);
    c.key = port(self, PORT_KEY, -1);
    c.mode = port(self, PORT_MODE, -1);
    c.quantize = port(self, PORT_QUANTIZE, -1);
    c.swing = port(self, PORT_SWING, -1);
    c.balls = port(self, PORT_BALLS, -1);
    c.bass_channel = port(self, PORT_BASS_CHANNEL, 0);
    c.keys_channel = port(self, PORT_KEYS_CHANNEL, 0);
    return c;
}

static void activate(LV2_Handle instance) {
    Plugin *self = instance;
    self->last_drop = port(self, PORT_DROP, -1);   // a session restored drops nothing
    ClumsyControls controls = read_controls(self);
    clumsy_engine_activate(self->engine, &controls);
}

/// A number atom of any of the four numeric types, or 0 with *found = 0.
static double number(const URIs *u, const LV2_Atom *atom, int32_t *found) {
    *found = 1;
    if (atom->type == u->atom_Float) return ((const LV2_Atom_Float *)atom)->body;
    if (atom->type == u->atom_Double) return ((const LV2_Atom_Double *)atom)->body;
    if (atom->type == u->atom_Int) return ((const LV2_Atom_Int *)atom)->body;
    if (atom->type == u->atom_Long) return (double)((const LV2_Atom_Long *)atom)->body;
    *found = 0;
    return 0;
}

static void read_position(const Plugin *self, uint32_t offset, const LV2_Atom_Object *object) {
    const URIs *u = &self->uris;
    const LV2_Atom *bar = NULL, *bar_beat = NULL, *beats_per_bar = NULL, *beat_unit = NULL, *bpm = NULL, *speed = NULL,
                   *frame = NULL;
    lv2_atom_object_get(object, u->time_bar, &bar, u->time_barBeat, &bar_beat, u->time_beatsPerBar, &beats_per_bar,
                        u->time_beatUnit, &beat_unit, u->time_beatsPerMinute, &bpm, u->time_speed, &speed,
                        u->time_frame, &frame, 0);
    ClumsyTransport t = {0};
    if (bar) t.bar = number(u, bar, &t.has_bar);
    if (bar_beat) t.bar_beat = number(u, bar_beat, &t.has_bar_beat);
    if (beats_per_bar) t.beats_per_bar = number(u, beats_per_bar, &t.has_beats_per_bar);
    if (beat_unit) t.beat_unit = number(u, beat_unit, &t.has_beat_unit);
    if (bpm) t.bpm = number(u, bpm, &t.has_bpm);
    if (speed) t.speed = number(u, speed, &t.has_speed);
    if (frame) t.frame = number(u, frame, &t.has_frame);
    clumsy_engine_transport(self->engine, offset, &t);
}

/// Runs the engine over `frames` frames from `offset` and forges what it played.
static void play(Plugin *self, uint32_t offset, uint32_t frames) {
    uint32_t count = clumsy_engine_process(self->engine, offset, frames, self->messages, CLUMSY_BLOCK_MESSAGES);
    for (uint32_t i = 0; i < count; i++) {
        const ClumsyMIDI *m = &self->messages[i];
        if (!lv2_atom_forge_frame_time(&self->forge, m->frame)) return;   // the host's buffer is full
        if (!lv2_atom_forge_atom(&self->forge, m->size, self->uris.midi_MidiEvent)) return;
        if (!lv2_atom_forge_write(&self->forge, m->bytes, m->size)) return;
    }
}

/// An object from the UI on the control port: "on" when it opens, "off" when it closes.
static void read_view_message(Plugin *self, const LV2_Atom_Object *object) {
    const LV2_URID type = object->body.otype;
    if (type != self->uris.clumsy_uiOn && type != self->uris.clumsy_uiOff) return;
    self->view_open = type == self->uris.clumsy_uiOn;
    self->since_frame = self->frame_interval;   // the first frame at once
    clumsy_engine_view(self->engine, self->view_open);
}

/// The notify port's sequence: empty, or (a UI open, its time come) one frame of the world.
static void notify(Plugin *self, uint32_t frames) {
    if (!self->notify) return;
    lv2_atom_forge_set_buffer(&self->forge, (uint8_t *)self->notify, self->notify->atom.size);
    LV2_Atom_Forge_Frame sequence;
    if (!lv2_atom_forge_sequence_head(&self->forge, &sequence, 0)) return;
    self->since_frame += frames;
    if (self->view_open && self->since_frame >= self->frame_interval && clumsy_engine_frame(self->engine, &self->frame)) {
        // On the beat of the interval (blocks rarely divide it), a late one not made up for.
        self->since_frame = self->since_frame >= 2 * self->frame_interval ? 0 : self->since_frame - self->frame_interval;
        const uint32_t count = self->frame.count <= CLUMSY_FRAME_BALLS ? self->frame.count : CLUMSY_FRAME_BALLS;
        const uint32_t size = (uint32_t)offsetof(ClumsyFrame, xy) + 4 * count;
        LV2_Atom_Forge_Frame object;
        // A full buffer (a host's smaller than rsz:minimumSize) leaves the frame out, nothing else.
        if (lv2_atom_forge_frame_time(&self->forge, 0) && lv2_atom_forge_object(&self->forge, &object, 0, self->uris.clumsy_Frame)) {
            if (lv2_atom_forge_key(&self->forge, self->uris.clumsy_frame) && lv2_atom_forge_atom(&self->forge, size, self->uris.atom_Chunk))
                lv2_atom_forge_write(&self->forge, &self->frame, size);
            lv2_atom_forge_pop(&self->forge, &object);
        }
    }
    lv2_atom_forge_pop(&self->forge, &sequence);
}

static void run(LV2_Handle instance, uint32_t frames) {
    Plugin *self = instance;
    const uint32_t capacity = self->out->atom.size;
    lv2_atom_forge_set_buffer(&self->forge, (uint8_t *)self->out, capacity);
    LV2_Atom_Forge_Frame sequence;
    lv2_atom_forge_sequence_head(&self->forge, &sequence, 0);
    ClumsyControls controls = read_controls(self);
    clumsy_engine_controls(self->engine, &controls);
    const float drop = port(self, PORT_DROP, -1);
    if (drop != self->last_drop && !(drop != drop)) {   // (a NaN is no place)
        self->last_drop = drop;
        if (drop >= 0) clumsy_engine_place(self->engine, drop);
    }
    uint32_t done = 0;
    if (self->control) {
        LV2_ATOM_SEQUENCE_FOREACH (self->control, event) {
            const uint32_t at = event->time.frames < frames ? (uint32_t)event->time.frames : frames;
            if (at > done) {
                play(self, done, at - done);
                done = at;
            }
            const LV2_Atom_Object *object = (const LV2_Atom_Object *)&event->body;
            if ((event->body.type == self->uris.atom_Object || event->body.type == self->uris.atom_Blank) &&
                object->body.otype == self->uris.time_Position) {
                read_position(self, at, object);
            } else if (event->body.type == self->uris.atom_Object || event->body.type == self->uris.atom_Blank) {
                read_view_message(self, object);
            } else if (event->body.type == self->uris.midi_MidiEvent) {
                clumsy_engine_midi(self->engine, at, (const uint8_t *)(event + 1), event->body.size);
            }
        }
    }
    play(self, done, frames - done);   // also when 0 frames are left: a stop's note-offs
    lv2_atom_forge_pop(&self->forge, &sequence);
    ClumsyOutputs shown;
    clumsy_engine_outputs(self->engine, &shown);
    if (self->outputs[0]) *self->outputs[0] = shown.degree;
    if (self->outputs[1]) *self->outputs[1] = shown.bar;
    if (self->outputs[2]) *self->outputs[2] = shown.section;
    notify(self, frames);
    ClumsySeek seek;
    if (clumsy_engine_take_seek(self->engine, &seek)) {
        if (self->schedule) {
            self->schedule->schedule_work(self->schedule->handle, sizeof seek, &seek);
        } else {
            // A host without a worker: the rebuild runs here (not real-time safe, but not silent).
            clumsy_engine_prepare(self->engine, &seek);
            clumsy_engine_adopt(self->engine);
        }
    }
}

// The worker (another thread): rebuild the session at a relocation's position.
static LV2_Worker_Status work(LV2_Handle instance, LV2_Worker_Respond_Function respond,
                              LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    Plugin *self = instance;
    if (size != sizeof(ClumsySeek)) return LV2_WORKER_ERR_UNKNOWN;
    clumsy_engine_prepare(self->engine, (const ClumsySeek *)data);
    const char done = 1;
    return respond(handle, sizeof done, &done);
}

static LV2_Worker_Status work_response(LV2_Handle instance, uint32_t size, const void *data) {
    (void)size;
    (void)data;
    Plugin *self = instance;
    clumsy_engine_adopt(self->engine);
    return LV2_WORKER_SUCCESS;
}

static const void *extension_data(const char *uri) {
    static const LV2_Worker_Interface worker = {work, work_response, NULL};
    return strcmp(uri, LV2_WORKER__interface) == 0 ? &worker : NULL;
}

static void cleanup(LV2_Handle instance) {
    Plugin *self = instance;
    clumsy_engine_free(self->engine);
    free(self);
}

static const LV2_Descriptor descriptor = {
    CLUMSY_URI, instantiate, connect_port, activate, run, NULL, cleanup, extension_data,
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}
