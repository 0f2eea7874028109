// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// lv2host: a headless LV2 host on liblilv for the plugin tests and `make bench`.
//
//   lv2host BUNDLE SECONDS [options] [FRAME:bpm=B,speed=S,bar=N,beat=X,skip=K | FRAME:port:NAME=V | FRAME:midi:B1,B2,B3 ...]
//
// Loads the plugin of BUNDLE (a directory), runs it SECONDS at --rate (48000) in blocks of
// --block (256) frames, with a time:Position at frame 0 (rolling, 4/4, --bpm, default 120)
// and one at each FRAME given (rounded to its block's offset), and prints every MIDI message
// it writes as "frame b1 b2 b3" (frames since the start); skip=K moves the transport K frames
// ahead of the blocks (as an xrun does). FRAME:port:NAME=V sets a control
// port from the block holding FRAME on; FRAME:midi:B1,B2,B3 sends a MIDI message (decimal bytes)
// at FRAME. Options: --NAME V sets a control port from the start (preset, seed, gravity, speed,
// key, mode, quantize, swing, balls, bass_channel, keys_channel, drop); --allocations prints to stderr how many
// allocations (malloc, calloc, realloc, memalign …) happened inside run(); --timing prints
// the mean, the 99th percentile and the longest run() in microseconds; --no-worker offers
// the plugin no worker (work:schedule); --ui connects the notify port and says "on" as the
// plugin's UI does (ui.c), then prints to stderr how many frames of the world the plugin
// wrote, the largest atom and the balls of the last; --notify connects the notify port and
// says nothing (a host without the UI open), and prints the same; --outputs connects the control
// output ports (degree, bar, section) and prints to stderr "outputs FRAME DEGREE BAR SECTION"
// after each block (FRAME its first) whose values differ from the last block's; --load-preset
// URI restores that LV2 preset's port values (lilv_state, as jalv's preset menu does) after the
// options and before activate, then prints to stderr "preset URI: SYMBOL=VALUE …" of every
// control port.
//
// Under `valgrind --tool=callgrind --collect-atstart=no` only the instructions inside run() are
// counted (a callgrind toggle around each call; a no-op outside valgrind): make bench-check's
// count of the plugin's block (Benchmarks/bench.sh).
//
// Build: cc -O2 -rdynamic -o lv2host Tools/lv2host.c $(pkg-config --cflags --libs lilv-0)  (-rdynamic: --allocations)
#define _GNU_SOURCE
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/midi/midi.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT
#endif

#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---- allocations counted inside run(): the executable's malloc family wins symbol lookup
// over libc's for every library loaded, the plugin and the Swift runtime included.
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
// LV2HOST_TRACE=N prints the call stacks of N counted allocations, from the
// LV2HOST_TRACE_FROM-th on (default: the first).
static volatile int counting = 0;
static volatile long allocations = 0;
static long traces = 0, trace_from = 1, current_block = 0;
static void counted(void) {
    allocations++;
    if (allocations >= trace_from && allocations < trace_from + traces) {
        counting = 0;
        void *frames[32];
        int n = backtrace(frames, 32);
        fprintf(stderr, "allocation %ld in run(), in the block at frame %ld:\n", allocations, current_block);
        backtrace_symbols_fd(frames, n, 2);
        counting = 1;
    }
}
void *malloc(size_t n) { if (counting) counted(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { if (counting) counted(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { if (counting) counted(); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { if (counting) counted(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { if (counting) counted(); return __libc_memalign(a, n); }
int posix_memalign(void **p, size_t a, size_t n) {
    if (counting) counted();
    *p = __libc_memalign(a, n);
    return *p ? 0 : 12;
}
void free(void *p) { __libc_free(p); }

// ---- URID map
static char *uris[256];
static int uri_count = 0;
static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (int i = 0; i < uri_count; i++) if (!strcmp(uris[i], uri)) return (LV2_URID)(i + 1);
    if (uri_count == 256) return 0;
    uris[uri_count] = strdup(uri);
    return (LV2_URID)++uri_count;
}

// The worker, run between two blocks (an offline host may): what run() scheduled is worked
// on after it returns, and the response delivered before the next run().
static uint8_t work_data[256], response_data[256];
static uint32_t work_size = 0, response_size = 0;
static LV2_Worker_Status schedule_work(LV2_Worker_Schedule_Handle handle, uint32_t size, const void *data) {
    (void)handle;
    if (work_size || size > sizeof work_data) return LV2_WORKER_ERR_NO_SPACE;
    memcpy(work_data, data, size);
    work_size = size;
    return LV2_WORKER_SUCCESS;
}
static LV2_Worker_Status respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    (void)handle;
    if (size > sizeof response_data) return LV2_WORKER_ERR_NO_SPACE;
    memcpy(response_data, data, size);
    response_size = size;
    return LV2_WORKER_SUCCESS;
}
static void run_worker(LilvInstance *instance) {
    const LV2_Worker_Interface *worker = lilv_instance_get_extension_data(instance, LV2_WORKER__interface);
    if (!worker || !work_size) return;
    worker->work(lilv_instance_get_handle(instance), respond, NULL, work_size, work_data);
    work_size = 0;
    if (response_size) worker->work_response(lilv_instance_get_handle(instance), response_size, response_data);
    response_size = 0;
}

typedef struct { long frame; double bpm, speed, bar, beat, skip; int located; } Change;

/// A time:Position at `offset` of the block: the transport at frame `position` (of the
/// transport's timeline), at bar and beat `c` (4/4).
static void forge_position(LV2_Atom_Forge *forge, LV2_URID_Map *map, uint32_t offset, const Change *c, double position) {
    LV2_Atom_Forge_Frame object;
    lv2_atom_forge_frame_time(forge, offset);
    lv2_atom_forge_object(forge, &object, 0, map_uri(NULL, LV2_TIME__Position));
    lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__frame));
    lv2_atom_forge_long(forge, (int64_t)position);
    lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__speed));
    lv2_atom_forge_float(forge, (float)c->speed);
    lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__beatsPerMinute));
    lv2_atom_forge_float(forge, (float)c->bpm);
    lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__bar));
    lv2_atom_forge_long(forge, (int64_t)c->bar);
    lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__barBeat));
    lv2_atom_forge_float(forge, (float)c->beat);
    lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__beatsPerBar));
    lv2_atom_forge_float(forge, 4);
    lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__beatUnit));
    lv2_atom_forge_int(forge, 4);
    lv2_atom_forge_pop(forge, &object);
}

static int parse_change(const char *text, Change *c, const Change *last) {
    *c = *last;
    c->located = 0;
    c->skip = 0;
    char *end;
    c->frame = strtol(text, &end, 10);
    if (*end != ':') return 0;
    for (char *item = end + 1; *item;) {
        double value;
        char key[16];
        int used;
        if (sscanf(item, "%15[a-z]=%lf%n", key, &value, &used) != 2) return 0;
        if (!strcmp(key, "bpm")) c->bpm = value;
        else if (!strcmp(key, "speed")) c->speed = value;
        else if (!strcmp(key, "skip")) c->skip = value;
        else if (!strcmp(key, "bar")) { c->bar = value; c->located = 1; }
        else if (!strcmp(key, "beat")) { c->beat = value; c->located = 1; }
        else return 0;
        item += used;
        if (*item == ',') item++;
    }
    return 1;
}

// The control ports by symbol, index 2 on (clumsy.ttl's order), with their defaults.
// (13 is the notify port, an atom port: --ui connects it.)
static const char *port_names[] = {"preset", "seed", "gravity", "speed", "key", "mode", "quantize", "swing", "balls",
                                   "bass_channel", "keys_channel", NULL, "drop"};
enum { FIRST_PORT = 2, PORT_END = FIRST_PORT + sizeof port_names / sizeof *port_names };
static float controls[PORT_END] = {0, 0, 0, 0, -1, 0, -1, -1, -1, -1, -1, 0, 0, 0, -1};

static int port_index(const char *name) {
    for (int i = FIRST_PORT; i < PORT_END; i++) if (port_names[i - FIRST_PORT] && !strcmp(port_names[i - FIRST_PORT], name)) return i;
    return -1;
}

/// A port change or a MIDI message at a frame.
typedef struct { long frame; int port; float value; uint8_t bytes[3]; } Event;

static int parse_event(const char *text, Event *e) {
    char *end;
    char name[32];
    float value;
    unsigned b1, b2, b3;
    *e = (Event){0};
    e->frame = strtol(text, &end, 10);
    if (sscanf(end, ":port:%31[a-z_]=%f", name, &value) == 2) {
        e->port = port_index(name);
        e->value = value;
        return e->port >= 0;
    }
    if (sscanf(end, ":midi:%u,%u,%u", &b1, &b2, &b3) == 3) {
        e->port = -1;
        e->bytes[0] = (uint8_t)b1, e->bytes[1] = (uint8_t)b2, e->bytes[2] = (uint8_t)b3;
        return 1;
    }
    return 0;
}

static int compare_doubles(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/// What the host plays the plugin: the transport's changes and the events (port changes, MIDI
/// in) in frame order, with where they have got to.
typedef struct {
    Change changes[64];
    Event events[64];
    int change_count, event_count, next_change, next_event, rolling;
    double transport;   // the transport's frame at the start of the block
    double rate;
} Script;

/// Reads the options and changes (argv from 3 on) into `s` and the flags; 0 when one is not understood.
static int ui_flag = 0, notify_flag = 0, outputs_flag = 0;
static const char *preset_to_load = NULL;

static int parse_arguments(int argc, char **argv, Script *s, uint32_t *block, int *allocations_flag, int *timing_flag, int *worker) {
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--allocations")) *allocations_flag = 1;
        else if (!strcmp(a, "--ui")) ui_flag = notify_flag = 1;
        else if (!strcmp(a, "--notify")) notify_flag = 1;
        else if (!strcmp(a, "--outputs")) outputs_flag = 1;
        else if (i + 1 < argc && !strcmp(a, "--load-preset")) preset_to_load = argv[++i];
        else if (!strcmp(a, "--timing")) *timing_flag = 1;
        else if (!strcmp(a, "--no-worker")) *worker = 0;
        else if (i + 1 < argc && !strcmp(a, "--rate")) s->rate = atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(a, "--block")) *block = (uint32_t)atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(a, "--bpm")) s->changes[0].bpm = atof(argv[++i]);
        else if (i + 1 < argc && !strncmp(a, "--", 2) && port_index(a + 2) >= 0) controls[port_index(a + 2)] = (float)atof(argv[++i]);
        else if (s->event_count < 64 && parse_event(a, &s->events[s->event_count])) s->event_count++;
        else if (s->change_count < 64 && parse_change(a, &s->changes[s->change_count], &s->changes[s->change_count - 1])) s->change_count++;
        else { fprintf(stderr, "lv2host: cannot read argument %s\n", a); return 0; }
    }
    return 1;
}

/// Sets the ports that change in the block from `start`, and forges its input: the transport's
/// changes and MIDI in, in frame order.
static void forge_block(Script *s, LV2_Atom_Forge *forge, LV2_URID_Map *map, LV2_URID midi_event, long start, uint32_t block) {
    for (int e = s->next_event; e < s->event_count && s->events[e].frame < start + block; e++) {
        if (s->events[e].port >= 0) controls[s->events[e].port] = s->events[e].value;
    }
    for (;;) {
        int change_due = s->next_change < s->change_count && s->changes[s->next_change].frame < start + block;
        int event_due = s->next_event < s->event_count && s->events[s->next_event].frame < start + block;
        if (!change_due && !event_due) break;
        if (event_due && (!change_due || s->events[s->next_event].frame < s->changes[s->next_change].frame)) {
            Event *e = &s->events[s->next_event++];
            if (e->port >= 0) continue;
            lv2_atom_forge_frame_time(forge, e->frame - start < 0 ? 0 : e->frame - start);
            lv2_atom_forge_atom(forge, 3, midi_event);
            lv2_atom_forge_write(forge, e->bytes, 3);
            continue;
        }
        Change *c = &s->changes[s->next_change++];
        long at = c->frame - start < 0 ? 0 : c->frame - start;
        // The transport's frame here: where it was located to, or where rolling took it.
        double position = c->located ? (c->bar * 4 + c->beat) * 60 / c->bpm * s->rate : s->transport + (s->rolling ? at : 0) + c->skip;
        double beats = position / s->rate * c->bpm / 60;
        c->bar = (double)(long)(beats / 4);
        c->beat = beats - c->bar * 4;
        forge_position(forge, map, (uint32_t)at, c, position);
        s->rolling = c->speed != 0;
        s->transport = position - (s->rolling ? at : 0);
    }
    if (s->rolling) s->transport += block;
}

/// What the plugin wrote on the notify port: frames of the world for an open UI.
static long ui_frames = 0, ui_largest = 0, ui_balls = 0;
static void read_notify(const LV2_Atom_Sequence *notify) {
    const LV2_URID frame_type = map_uri(NULL, "urn:clumsy:lv2#Frame");
    LV2_ATOM_SEQUENCE_FOREACH (notify, ev) {
        const LV2_Atom_Object *object = (const LV2_Atom_Object *)&ev->body;
        if (object->body.otype != frame_type) continue;
        ui_frames++;
        if ((long)lv2_atom_total_size(&ev->body) > ui_largest) ui_largest = (long)lv2_atom_total_size(&ev->body);
        LV2_ATOM_OBJECT_FOREACH (object, property) {
            if (property->value.size >= 36) ui_balls = *(const uint32_t *)((const uint8_t *)LV2_ATOM_BODY_CONST(&property->value) + 32);
        }
    }
}

/// A preset's port value (lilv_state_restore's callback): into the control port of that symbol.
static void set_port_value(const char *symbol, void *user_data, const void *value, uint32_t size, uint32_t type) {
    LV2_URID_Map *map = user_data;
    const int index = port_index(symbol);
    if (index < 0) { fprintf(stderr, "lv2host: the preset sets %s, no control port\n", symbol); return; }
    if (type == map->map(map->handle, LV2_ATOM__Float) && size == sizeof(float)) controls[index] = *(const float *)value;
    else if (type == map->map(map->handle, LV2_ATOM__Double) && size == sizeof(double)) controls[index] = (float)*(const double *)value;
    else if (type == map->map(map->handle, LV2_ATOM__Int) && size == sizeof(int32_t)) controls[index] = (float)*(const int32_t *)value;
    else fprintf(stderr, "lv2host: the preset's value of %s is of an unknown type\n", symbol);
}

/// Restores the LV2 preset `uri` into the control ports and prints them; 0 when there is no such preset.
static int load_preset(LilvWorld *world, LV2_URID_Map *map, LilvInstance *instance, const char *uri) {
    LilvNode *node = lilv_new_uri(world, uri);
    lilv_world_load_resource(world, node);
    LilvState *state = lilv_state_new_from_world(world, map, node);
    lilv_node_free(node);
    if (!state) { fprintf(stderr, "lv2host: no preset %s\n", uri); return 0; }
    lilv_state_restore(state, instance, set_port_value, map, 0, NULL);
    lilv_state_free(state);
    fprintf(stderr, "preset %s:", uri);
    for (int i = FIRST_PORT; i < PORT_END; i++) if (port_names[i - FIRST_PORT]) fprintf(stderr, " %s=%g", port_names[i - FIRST_PORT], controls[i]);
    fprintf(stderr, "\n");
    return 1;
}

/// The control output ports (degree, bar, section), and their values after the last block printed.
static float outputs[3], shown[3] = {-1, -1, -1};
enum { FIRST_OUTPUT = 15 };

/// Prints the output ports after the block from `start` when they changed.
static void print_outputs(long start) {
    if (!memcmp(outputs, shown, sizeof outputs)) return;
    memcpy(shown, outputs, sizeof outputs);
    fprintf(stderr, "outputs %ld %g %g %g\n", start, outputs[0], outputs[1], outputs[2]);
}

/// Prints the MIDI messages of `out` at frames from `start`.
static void print_messages(const LV2_Atom_Sequence *out, long start, LV2_URID midi_event) {
    LV2_ATOM_SEQUENCE_FOREACH (out, ev) {
        if (ev->body.type != midi_event) continue;
        const uint8_t *bytes = (const uint8_t *)(ev + 1);
        printf("%ld", start + (long)ev->time.frames);
        for (uint32_t b = 0; b < ev->body.size; b++) printf(" %u", bytes[b]);
        printf("\n");
    }
}

/// The mean, 99th percentile and longest of the `blocks` run() times (µs; sorts them).
static void print_timing(double *times, long blocks, long longest_at, uint32_t block, double rate) {
    const double longest = times[longest_at / block];
    double sum = 0;
    for (long i = 0; i < blocks; i++) sum += times[i];
    qsort(times, (size_t)blocks, sizeof(double), compare_doubles);
    fprintf(stderr, "run(): mean %.2f us, 99th percentile %.2f us, longest %.2f us (the block at frame %ld) per %u-frame block (%.1f us of audio)\n",
            sum / blocks, times[(long)(0.99 * (blocks - 1))], longest, longest_at, block, block * 1e6 / rate);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: lv2host BUNDLE SECONDS [options] [FRAME:bpm=B,speed=S,bar=N,beat=X ...]\n"); return 64; }
    const char *bundle = argv[1];
    if (getenv("LV2HOST_TRACE")) traces = atol(getenv("LV2HOST_TRACE"));
    if (getenv("LV2HOST_TRACE_FROM")) trace_from = atol(getenv("LV2HOST_TRACE_FROM"));
    static Script script = {.changes = {{0, 120, 1, 0, 0, 0, 1}}, .change_count = 1, .rate = 48000};
    uint32_t block = 256;
    int report_allocations = 0, report_timing = 0, worker = 1;
    if (!parse_arguments(argc, argv, &script, &block, &report_allocations, &report_timing, &worker)) return 64;
    const double seconds = atof(argv[2]), rate = script.rate;

    LilvWorld *world = lilv_world_new();
    char path[4096];
    snprintf(path, sizeof path, "%s/", bundle);
    LilvNode *bundle_uri = lilv_new_file_uri(world, NULL, path);
    lilv_world_load_bundle(world, bundle_uri);
    LilvNode *plugin_uri = lilv_new_uri(world, "urn:clumsy:lv2");
    const LilvPlugin *plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), plugin_uri);
    if (!plugin) { fprintf(stderr, "lv2host: no plugin urn:clumsy:lv2 in %s\n", bundle); return 69; }

    LV2_URID_Map map = {NULL, map_uri};
    LV2_Feature map_feature = {LV2_URID__map, &map};
    LV2_Worker_Schedule schedule = {NULL, schedule_work};
    LV2_Feature schedule_feature = {LV2_WORKER__schedule, &schedule};
    const LV2_Feature *features[] = {&map_feature, worker ? &schedule_feature : NULL, NULL};
    LilvInstance *instance = lilv_plugin_instantiate(plugin, rate, features);
    if (!instance) { fprintf(stderr, "lv2host: the plugin did not instantiate\n"); return 69; }

    enum { CAPACITY = 1 << 16 };
    uint8_t *in = calloc(1, CAPACITY), *out = calloc(1, CAPACITY), *notify = calloc(1, CAPACITY);
    lilv_instance_connect_port(instance, 0, in);
    lilv_instance_connect_port(instance, 1, out);
    if (notify_flag) lilv_instance_connect_port(instance, 13, notify);
    for (uint32_t p = FIRST_PORT; p < PORT_END; p++) if (port_names[p - FIRST_PORT]) lilv_instance_connect_port(instance, p, &controls[p]);
    if (outputs_flag) for (uint32_t p = 0; p < 3; p++) lilv_instance_connect_port(instance, FIRST_OUTPUT + p, &outputs[p]);
    if (preset_to_load && !load_preset(world, &map, instance, preset_to_load)) return 69;
    lilv_instance_activate(instance);

    LV2_Atom_Forge forge;
    lv2_atom_forge_init(&forge, &map);
    const LV2_URID midi_event = map_uri(NULL, LV2_MIDI__MidiEvent);
    const long total = (long)(seconds * rate);
    long longest_at = 0;
    double *times = calloc((size_t)(total / block + 1), sizeof(double));
    long blocks = 0;
    for (long start = 0; start < total; start += block) {
        LV2_Atom_Forge_Frame sequence;
        lv2_atom_forge_set_buffer(&forge, in, CAPACITY);
        lv2_atom_forge_sequence_head(&forge, &sequence, 0);
        forge_block(&script, &forge, &map, midi_event, start, block);
        if (ui_flag && start == 0) {   // the UI opens: "on", as ui.c says it
            LV2_Atom_Forge_Frame object;
            lv2_atom_forge_frame_time(&forge, 0);
            lv2_atom_forge_object(&forge, &object, 0, map_uri(NULL, "urn:clumsy:lv2#uiOn"));
            lv2_atom_forge_pop(&forge, &object);
        }
        lv2_atom_forge_pop(&forge, &sequence);
        ((LV2_Atom_Sequence *)notify)->atom.size = 16384 - sizeof(LV2_Atom);
        LV2_Atom_Sequence *o = (LV2_Atom_Sequence *)out;
        o->atom.size = CAPACITY - sizeof(LV2_Atom);
        o->atom.type = 0;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        current_block = start;
        counting = 1;
        CALLGRIND_TOGGLE_COLLECT;
        lilv_instance_run(instance, block);
        CALLGRIND_TOGGLE_COLLECT;
        counting = 0;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        run_worker(instance);
        double us = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3;
        times[blocks] = us;
        if (us > times[longest_at / block]) longest_at = start;
        blocks++;
        print_messages(o, start, midi_event);
        if (notify_flag) read_notify((const LV2_Atom_Sequence *)notify);
        if (outputs_flag) print_outputs(start);
    }
    if (report_allocations) fprintf(stderr, "allocations in run(): %ld over %ld blocks\n", allocations, blocks);
    if (report_timing) print_timing(times, blocks, longest_at, block, rate);
    if (notify_flag) fprintf(stderr, "ui frames: %ld, largest atom %ld bytes, %ld balls in the last\n", ui_frames, ui_largest, ui_balls);
    free(times);
    lilv_instance_deactivate(instance);
    lilv_instance_free(instance);
    lilv_node_free(plugin_uri);
    lilv_node_free(bundle_uri);
    lilv_world_free(world);
    free(in);
    free(out);
    free(notify);
    return 0;
}
