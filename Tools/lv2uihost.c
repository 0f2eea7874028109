// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// lv2uihost: opens and closes clumsy.lv2's UI again and again, as a host does, for valgrind.
//
//   lv2uihost BUNDLE [TIMES] [PRESET]
//
// Loads BUNDLE/clumsy.so, instantiates the plugin (48 kHz, rolling at 120 bpm) and, TIMES times
// (default 10), its UI: a top-level X11 window on $DISPLAY (no ui:parent), told the preset port,
// then 8 rounds of a 1600-frame run() whose notify frames go to the UI's port_event, and an
// idle call (a drawing); then the UI's cleanup. The plugin's "on" and "off" messages written
// by the UI are fed back into the plugin's control port. Exits 0 when every UI opened and
// drew. Build: cc -O2 -o lv2uihost Tools/lv2uihost.c -ldl
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/time/time.h>
#include <lv2/ui/ui.h>
#include <lv2/urid/urid.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *uris[256];
static int uri_count = 0;
static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (int i = 0; i < uri_count; i++) if (!strcmp(uris[i], uri)) return (LV2_URID)(i + 1);
    if (uri_count == 256) return 0;
    uris[uri_count] = strdup(uri);
    return (LV2_URID)++uri_count;
}

enum { CAPACITY = 1 << 16, BLOCK = 1600 };
static uint8_t control[CAPACITY], out[CAPACITY], notify[CAPACITY];
static uint8_t from_ui[256];
static uint32_t from_ui_size = 0;

/// What the UI writes: its "on" and "off" objects for the plugin's control port.
static void ui_write(LV2UI_Controller controller, uint32_t port, uint32_t size, uint32_t protocol, const void *buffer) {
    (void)controller;
    (void)protocol;
    if (port == 0 && size <= sizeof from_ui) {
        memcpy(from_ui, buffer, size);
        from_ui_size = size;
    }
}

/// One block: the transport rolling (first block), what the UI wrote, then run().
static void run_block(const LV2_Descriptor *plugin, LV2_Handle instance, LV2_Atom_Forge *forge, int first) {
    LV2_Atom_Forge_Frame sequence, object;
    lv2_atom_forge_set_buffer(forge, control, CAPACITY);
    lv2_atom_forge_sequence_head(forge, &sequence, 0);
    if (first) {
        lv2_atom_forge_frame_time(forge, 0);
        lv2_atom_forge_object(forge, &object, 0, map_uri(NULL, LV2_TIME__Position));
        lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__speed));
        lv2_atom_forge_float(forge, 1);
        lv2_atom_forge_key(forge, map_uri(NULL, LV2_TIME__beatsPerMinute));
        lv2_atom_forge_float(forge, 120);
        lv2_atom_forge_pop(forge, &object);
    }
    if (from_ui_size) {
        lv2_atom_forge_frame_time(forge, 0);
        lv2_atom_forge_write(forge, from_ui, from_ui_size);
        from_ui_size = 0;
    }
    lv2_atom_forge_pop(forge, &sequence);
    ((LV2_Atom_Sequence *)out)->atom.size = CAPACITY - sizeof(LV2_Atom);
    ((LV2_Atom_Sequence *)notify)->atom.size = CAPACITY - sizeof(LV2_Atom);
    plugin->run(instance, BLOCK);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: lv2uihost BUNDLE [TIMES] [PRESET]\n"); return 64; }
    const int times = argc > 2 ? atoi(argv[2]) : 10;
    float preset = argc > 3 ? (float)atof(argv[3]) : 0, unset[15];
    for (int i = 0; i < 15; i++) unset[i] = -1;
    unset[3] = unset[5] = unset[13] = 0;   // seed, speed: 0 is the preset's own
    char path[4096];
    snprintf(path, sizeof path, "%s/clumsy.so", argv[1]);
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) { fprintf(stderr, "lv2uihost: %s\n", dlerror()); return 69; }
    const LV2_Descriptor *(*plugin_descriptor)(uint32_t) = (const LV2_Descriptor *(*)(uint32_t))dlsym(library, "lv2_descriptor");
    const LV2UI_Descriptor *(*ui_descriptor)(uint32_t) = (const LV2UI_Descriptor *(*)(uint32_t))dlsym(library, "lv2ui_descriptor");
    if (!plugin_descriptor || !ui_descriptor) { fprintf(stderr, "lv2uihost: no descriptors in %s\n", path); return 69; }
    const LV2_Descriptor *plugin = plugin_descriptor(0);
    const LV2UI_Descriptor *ui = ui_descriptor(0);
    LV2_URID_Map map = {NULL, map_uri};
    LV2_Feature map_feature = {LV2_URID__map, &map};
    const LV2_Feature *features[] = {&map_feature, NULL};
    char bundle[4096];
    snprintf(bundle, sizeof bundle, "%s/", argv[1]);
    LV2_Handle instance = plugin->instantiate(plugin, 48000, bundle, features);
    if (!instance) { fprintf(stderr, "lv2uihost: the plugin did not instantiate\n"); return 69; }
    plugin->connect_port(instance, 0, control);
    plugin->connect_port(instance, 1, out);
    plugin->connect_port(instance, 2, &preset);
    for (uint32_t p = 3; p <= 14; p++) plugin->connect_port(instance, p, p == 13 ? (void *)notify : (void *)&unset[p]);
    plugin->activate(instance);
    LV2_Atom_Forge forge;
    lv2_atom_forge_init(&forge, &map);
    const LV2_URID event_transfer = map_uri(NULL, LV2_ATOM__eventTransfer);
    int drawn = 0, first = 1;
    for (int t = 0; t < times; t++) {
        LV2UI_Widget widget = NULL;
        LV2UI_Handle handle = ui->instantiate(ui, "urn:clumsy:lv2", bundle, ui_write, NULL, &widget, features);
        if (!handle) { fprintf(stderr, "lv2uihost: the UI did not open (is DISPLAY set?)\n"); return 69; }
        const LV2UI_Idle_Interface *idle = ui->extension_data(LV2_UI__idleInterface);
        ui->port_event(handle, 2, sizeof preset, 0, &preset);
        for (int round = 0; round < 8; round++) {
            run_block(plugin, instance, &forge, first);
            first = 0;
            LV2_ATOM_SEQUENCE_FOREACH ((const LV2_Atom_Sequence *)notify, ev) {
                ui->port_event(handle, 13, lv2_atom_total_size(&ev->body), event_transfer, &ev->body);
                drawn++;
            }
            if (idle) idle->idle(handle);
        }
        ui->cleanup(handle);
        run_block(plugin, instance, &forge, 0);   // the UI's "off"
    }
    plugin->deactivate ? plugin->deactivate(instance) : (void)0;
    plugin->cleanup(instance);
    for (int i = 0; i < uri_count; i++) free(uris[i]);
    printf("opened and closed the UI %d times; %d frames shown\n", times, drawn);
    return drawn >= times * 7 ? 0 : 1;
}
