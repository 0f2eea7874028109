// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Performance
import TestSupport
import Testing
@testable import Engine
@testable import PictureCommands
#if canImport(Glibc)
import Glibc
#endif

/// `clumsy draw --trace`: the paths and hits of a session's first seconds.
@Suite struct TraceTests {
    @Test("A trace holds a path per ball and a hit per struck note (not the drums) of the seconds asked")
    func trace() throws {
        let preset = try bundled("default")
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 60))
        let trace = try DrawingBuilder.trace(plan, seconds: 8)
        #expect(abs(trace.duration - 8) <= plan.world.timestep, "\(trace.duration)")
        #expect(trace.paths.count == plan.world.pianoStarts.count + 1)
        // Every other step at most: 8 s of steps, halved, for the bass ball, which never leaves.
        let steps = Int((8 / plan.world.timestep).rounded())
        #expect(trace.paths[0].count >= steps / 2 - 1 && trace.paths[0].count <= steps / 2 + 1, "\(trace.paths[0].count) of \(steps) steps")
        #expect(trace.paths.dropFirst().allSatisfy { !$0.isEmpty })
        // The same session's struck notes, as the event log has them.
        let struck = try simulate(preset, duration: 8).events.filter { event in
            guard case .note(let note) = event, note.kind == .on, note.ball >= 0, note.speed > 0 else { return false }
            return plan.voices.voices[note.voice.rawValue].source != .percussion
        }.count
        #expect(struck > 10 && trace.hitCount <= struck && trace.hitCount >= struck - 4, "\(trace.hitCount) hits of \(struck) notes")
        #expect(!trace.hits.isEmpty && trace.hits.count <= trace.hitCount)
    }

    @Test("A trace stopped at once holds what was simulated until then")
    func stopped() throws {
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("default"), duration: 60))
        let stop = StopSignal()
        stop.raise(SIGINT)
        let trace = try DrawingBuilder.trace(plan, seconds: 30, stop: stop)
        #expect(trace.duration < 1, "\(trace.duration)")
        #expect(trace.paths.count == plan.world.pianoStarts.count + 1)
    }
}
