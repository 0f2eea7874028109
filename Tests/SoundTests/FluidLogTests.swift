// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Sound

@Suite("FluidSynth's log kept for the user")
struct FluidLogTests {
    @Test("A repeated message is kept once with its count, in the order first logged")
    func repeatedMessageIsCounted() {
        var state = FluidLog.State()
        state.keep(level: "warning", text: "Sample 'A': invalid start/end file positions")
        state.keep(level: "error", text: "fluid_synth_noteon: no preset")
        state.keep(level: "warning", text: "Sample 'A': invalid start/end file positions")
        #expect(state.kept.map(\.description) == [
            "fluidsynth: Sample 'A': invalid start/end file positions (2 times)",
            "fluidsynth: error: fluid_synth_noteon: no preset",
        ])
    }

    @Test("Past the capacity, new messages are counted, not kept")
    func capacityBoundsTheMessages() {
        var state = FluidLog.State()
        for index in 0...SoundDiagnostics.capacity + 4 { state.keep(level: "warning", text: "message \(index)") }
        #expect(state.kept.count == SoundDiagnostics.capacity)
        #expect(state.dropped == 5)
    }
}
