// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The one C++ file of Clumsy: Ableton Link behind clumsy_link.h. Link is header-only
// (GPL-2.0-or-later); its threads and sockets are its own. Nothing here throws into C: a Link
// that cannot be made returns NULL.
#include "clumsy_link.h"

#include <ableton/Link.hpp>
#include <chrono>
#include <new>

struct clumsy_link {
    ableton::Link link;
    explicit clumsy_link(double bpm) : link(bpm) {}
};

extern "C" {

clumsy_link *clumsy_link_create(double bpm) {
    try {
        clumsy_link *made = new clumsy_link(bpm);
        made->link.enableStartStopSync(true);
        made->link.enable(true);
        return made;
    } catch (...) {
        return nullptr;
    }
}

void clumsy_link_destroy(clumsy_link *link) {
    if (!link) return;
    link->link.enable(false);
    delete link;
}

size_t clumsy_link_peers(clumsy_link *link) { return link->link.numPeers(); }

int64_t clumsy_link_micros(clumsy_link *link) { return link->link.clock().micros().count(); }

void clumsy_link_capture(clumsy_link *link, int64_t micros, double quantum, clumsy_link_state *out) {
    auto state = link->link.captureAppSessionState();
    const auto at = std::chrono::microseconds(micros);
    out->tempo = state.tempo();
    out->beat = state.beatAtTime(at, quantum);
    out->playing = state.isPlaying() ? 1 : 0;
}

int64_t clumsy_link_time_at_beat(clumsy_link *link, double beat, double quantum) {
    auto state = link->link.captureAppSessionState();
    return state.timeAtBeat(beat, quantum).count();
}

void clumsy_link_set_tempo(clumsy_link *link, double bpm, int64_t micros) {
    auto state = link->link.captureAppSessionState();
    state.setTempo(bpm, std::chrono::microseconds(micros));
    link->link.commitAppSessionState(state);
}

void clumsy_link_set_playing(clumsy_link *link, int playing, int64_t micros, double beat, double quantum) {
    auto state = link->link.captureAppSessionState();
    const auto at = std::chrono::microseconds(micros);
    if (playing) {
        state.setIsPlayingAndRequestBeatAtTime(true, at, beat, quantum);
    } else {
        state.setIsPlaying(false, at);
    }
    link->link.commitAppSessionState(state);
}

}
