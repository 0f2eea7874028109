// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// clumsy.lv2's UI: an X11 window (a child of the host's ui:parent) showing the world as it
// plays. It lives in the plugin's library (one Swift runtime per bundle) and shares nothing
// with the plugin's instance (a host may run it in another process): it learns the controls
// from the host's port events and the balls from the frames on the notify port, which the
// plugin writes only after this UI said "on" (and stops at "off"). The drawing is the Swift
// side's (clumsy_view_*, Cairo, what `clumsy draw` draws); this file puts its pixels in the
// window when the host calls idle, and turns a click in the piano area into a drop there.
#include "clumsy_lv2.h"

#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/core/lv2_util.h>
#include <lv2/ui/ui.h>
#include <lv2/urid/urid.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CLUMSY_UI_URI "urn:clumsy:lv2#ui"

// The plugin's ports the UI speaks to (plugin.c's order).
enum { UI_PORT_CONTROL = 0, UI_FIRST_CONTROL = 2, UI_LAST_CONTROL = 12, UI_PORT_NOTIFY = 13, UI_PORT_DROP = 14 };

typedef struct {
    Display *display;
    Window window;
    int width, height;
    int dirty;
    float drop;   // the drop port as the host last told it
    LV2UI_Write_Function write;
    LV2UI_Controller controller;
    LV2_URID_Map *map;
    LV2_URID atom_eventTransfer, atom_Object, atom_Blank, atom_Chunk, clumsy_Frame, clumsy_frame, clumsy_uiOn, clumsy_uiOff;
    void *view;
} UI;

/// Tells the plugin the UI opened (`uiOn`) or closed (`uiOff`): an object on its control port.
static void say(UI *ui, LV2_URID message) {
    uint8_t buffer[64];
    LV2_Atom_Forge forge;
    lv2_atom_forge_init(&forge, ui->map);
    lv2_atom_forge_set_buffer(&forge, buffer, sizeof buffer);
    LV2_Atom_Forge_Frame frame;
    if (!lv2_atom_forge_object(&forge, &frame, 0, message)) return;
    lv2_atom_forge_pop(&forge, &frame);
    const LV2_Atom *atom = (const LV2_Atom *)buffer;
    ui->write(ui->controller, UI_PORT_CONTROL, lv2_atom_total_size(atom), ui->atom_eventTransfer, atom);
}

static LV2UI_Handle instantiate(const LV2UI_Descriptor *descriptor, const char *plugin_uri, const char *bundle_path,
                                LV2UI_Write_Function write, LV2UI_Controller controller, LV2UI_Widget *widget,
                                const LV2_Feature *const *features) {
    (void)descriptor;
    (void)plugin_uri;
    void *parent = NULL;
    LV2_URID_Map *map = NULL;
    LV2UI_Resize *resize = NULL;
    if (lv2_features_query(features, LV2_UI__parent, &parent, false, LV2_URID__map, &map, true, LV2_UI__resize, &resize, false, NULL))
        return NULL;
    UI *ui = calloc(1, sizeof(UI));
    if (!ui) return NULL;
    ui->display = XOpenDisplay(NULL);
    ui->view = ui->display ? clumsy_view_new(bundle_path) : NULL;
    if (!ui->view) {
        if (ui->display) XCloseDisplay(ui->display);
        free(ui);
        return NULL;
    }
    ui->write = write;
    ui->controller = controller;
    ui->map = map;
    ui->atom_eventTransfer = map->map(map->handle, LV2_ATOM__eventTransfer);
    ui->atom_Object = map->map(map->handle, LV2_ATOM__Object);
    ui->atom_Blank = map->map(map->handle, LV2_ATOM__Blank);
    ui->atom_Chunk = map->map(map->handle, LV2_ATOM__Chunk);
    ui->clumsy_Frame = map->map(map->handle, "urn:clumsy:lv2#Frame");
    ui->clumsy_frame = map->map(map->handle, "urn:clumsy:lv2#frame");
    ui->clumsy_uiOn = map->map(map->handle, "urn:clumsy:lv2#uiOn");
    ui->clumsy_uiOff = map->map(map->handle, "urn:clumsy:lv2#uiOff");
    ui->drop = -1;
    ui->width = 800;
    ui->height = 450;
    const Window under = parent ? (Window)(uintptr_t)parent : DefaultRootWindow(ui->display);
    ui->window = XCreateSimpleWindow(ui->display, under, 0, 0, (unsigned)ui->width, (unsigned)ui->height, 0, 0, 0);
    XSelectInput(ui->display, ui->window, ExposureMask | ButtonPressMask | StructureNotifyMask);
    XMapWindow(ui->display, ui->window);
    XFlush(ui->display);
    if (resize) resize->ui_resize(resize->handle, ui->width, ui->height);
    *widget = (LV2UI_Widget)(uintptr_t)ui->window;
    ui->dirty = 1;
    say(ui, ui->clumsy_uiOn);
    return ui;
}

static void cleanup(LV2UI_Handle handle) {
    UI *ui = handle;
    say(ui, ui->clumsy_uiOff);
    clumsy_view_free(ui->view);
    XDestroyWindow(ui->display, ui->window);
    XCloseDisplay(ui->display);
    free(ui);
}

static void port_event(LV2UI_Handle handle, uint32_t port, uint32_t size, uint32_t format, const void *buffer) {
    UI *ui = handle;
    if (format == 0 && size == sizeof(float) && port >= UI_FIRST_CONTROL && port <= UI_LAST_CONTROL) {
        clumsy_view_port(ui->view, port, *(const float *)buffer);
        ui->dirty = 1;
        return;
    }
    if (format == 0 && size == sizeof(float) && port == UI_PORT_DROP) {
        ui->drop = *(const float *)buffer;
        return;
    }
    if (format != ui->atom_eventTransfer || port != UI_PORT_NOTIFY || size < sizeof(LV2_Atom_Object)) return;
    const LV2_Atom_Object *object = buffer;
    if ((object->atom.type != ui->atom_Object && object->atom.type != ui->atom_Blank) || object->body.otype != ui->clumsy_Frame) return;
    if (lv2_atom_total_size(&object->atom) > size) return;
    const LV2_Atom *frame = NULL;
    lv2_atom_object_get(object, ui->clumsy_frame, &frame, 0);
    if (!frame || frame->type != ui->atom_Chunk) return;
    clumsy_view_frame(ui->view, LV2_ATOM_BODY_CONST(frame), frame->size);
    ui->dirty = 1;
}

/// Puts the view's pixels (ARGB32 in this machine's byte order) in the window.
static void draw(UI *ui) {
    const uint8_t *pixels = NULL;
    int32_t stride = 0;
    ui->dirty = 0;
    XWindowAttributes attributes;
    if (!XGetWindowAttributes(ui->display, ui->window, &attributes) || attributes.depth < 24) return;
    if (clumsy_view_render(ui->view, ui->width, ui->height, &pixels, &stride) != 0) return;
    XImage *image = XCreateImage(ui->display, attributes.visual, (unsigned)attributes.depth, ZPixmap, 0, (char *)(uintptr_t)pixels,
                                 (unsigned)ui->width, (unsigned)ui->height, 32, stride);
    if (!image) return;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    image->byte_order = LSBFirst;
#else
    image->byte_order = MSBFirst;
#endif
    XPutImage(ui->display, ui->window, DefaultGC(ui->display, DefaultScreen(ui->display)), image, 0, 0, 0, 0,
              (unsigned)ui->width, (unsigned)ui->height);
    image->data = NULL;   // the view's pixels, not Xlib's to free
    XDestroyImage(image);
    XFlush(ui->display);
}

/// A click at pixel (x, y): in the piano area, the drop port set to its place there (a
/// control port, so the host saves it with its session and records it as automation). The
/// same place twice moves it a thousandth, so that the port changes and the ball drops again.
static void click(UI *ui, int x, int y) {
    float place = 0;
    if (!clumsy_view_place(ui->view, x, y, &place)) return;
    if (place == ui->drop) place += place < 1000 ? 1 : -1;
    ui->drop = place;
    ui->write(ui->controller, UI_PORT_DROP, sizeof place, 0, &place);
}

/// The host calls it about 30 times a second: the window's events, then a new drawing if anything changed.
static int idle(LV2UI_Handle handle) {
    UI *ui = handle;
    while (XPending(ui->display)) {
        XEvent event;
        XNextEvent(ui->display, &event);
        if (event.type == ConfigureNotify && (event.xconfigure.width != ui->width || event.xconfigure.height != ui->height)) {
            ui->width = event.xconfigure.width;
            ui->height = event.xconfigure.height;
            ui->dirty = 1;
        } else if (event.type == Expose) {
            ui->dirty = 1;
        } else if (event.type == ButtonPress && event.xbutton.button == Button1) {
            click(ui, event.xbutton.x, event.xbutton.y);
        }
    }
    if (ui->dirty) draw(ui);
    return 0;
}

/// The host resized the window.
static int resize(LV2UI_Feature_Handle handle, int width, int height) {
    UI *ui = handle;
    if (!ui || width < 1 || height < 1) return 1;
    XResizeWindow(ui->display, ui->window, (unsigned)width, (unsigned)height);
    ui->width = width;
    ui->height = height;
    ui->dirty = 1;
    return 0;
}

static const void *extension_data(const char *uri) {
    static const LV2UI_Idle_Interface idle_interface = {idle};
    static const LV2UI_Resize resize_interface = {NULL, resize};
    if (!strcmp(uri, LV2_UI__idleInterface)) return &idle_interface;
    if (!strcmp(uri, LV2_UI__resize)) return &resize_interface;
    return NULL;
}

static const LV2UI_Descriptor descriptor = {CLUMSY_UI_URI, instantiate, cleanup, port_event, extension_data};

LV2_SYMBOL_EXPORT const LV2UI_Descriptor *lv2ui_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}
