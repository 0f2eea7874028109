// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CJack
import Testing

/// The JACK shim's ring (Sources/CJack/jack.c) without a server: every event the session thread
/// pushes waits for the process callback, and a full ring refuses the next event instead of
/// overwriting one the callback has not read. (Swift sees neither the ring's slots nor the
/// atomic counters, only the shim's functions.)
@Suite struct JackShimTests {
    /// A state as `clumsy_jack_open` leaves it before the client opens: zeroed.
    private func withState(_ body: (UnsafeMutablePointer<clumsy_jack_state>) throws -> Void) rethrows {
        let state = UnsafeMutablePointer<clumsy_jack_state>.allocate(capacity: 1)
        UnsafeMutableRawPointer(state).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<clumsy_jack_state>.size)
        defer { state.deallocate() }
        try body(state)
    }

    @Test("the ring holds exactly CLUMSY_JACK_RING events and refuses one more")
    func ringFillsAndRefuses() {
        withState { state in
            #expect(clumsy_jack_pending(state) == 0 && clumsy_jack_is_shut_down(state) == 0)
            for index in 0..<Int(CLUMSY_JACK_RING) {
                let pushed = clumsy_jack_push(state, jack_nframes_t(index), Int32(index % 3), 3, 0x90, UInt8(index % 128), 100)
                if pushed != 1 {
                    Issue.record("push \(index) refused with \(clumsy_jack_pending(state)) pending")
                    return
                }
            }
            #expect(clumsy_jack_pending(state) == CLUMSY_JACK_RING)
            #expect(clumsy_jack_push(state, 1, 0, 3, 0x80, 60, 0) == 0, "a full ring took another event")
            #expect(clumsy_jack_pending(state) == CLUMSY_JACK_RING)
        }
    }

    @Test("the counters the session reads start at zero, and a zeroed state is a live one")
    func countersStartAtZero() {
        withState { state in
            #expect(clumsy_jack_delivered(state) == 0 && clumsy_jack_late(state) == 0 && clumsy_jack_dropped(state) == 0)
            #expect(clumsy_jack_worst_late(state) == 0 && clumsy_jack_cycles(state) == 0 && clumsy_jack_is_shut_down(state) == 0)
            // Pushing is the producer's alone: it moves nothing the callback counts.
            #expect(clumsy_jack_push(state, 0, 0, 1, 0xF8, 0, 0) == 1)
            #expect(clumsy_jack_delivered(state) == 0 && clumsy_jack_pending(state) == 1)
        }
    }
}
