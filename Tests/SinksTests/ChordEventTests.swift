// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import EventLog
import Foundation
import Performance
import TestSupport
import Testing
import Theory
@testable import Engine
@testable import Sinks
#if canImport(Glibc)
import Glibc
#endif

/// The sinks name the chords the session's chord events name, and nothing else.
@Suite("Chord events in the sinks")
struct ChordEventTests {
    static func chords(_ events: [SessionEvent]) -> [ChordEvent] {
        events.compactMap { if case .chord(let chord) = $0 { return chord } else { return nil } }
    }

    @Test("borrowed-chords: the chord events name bass.chords (E7 numbered II on ii), one per change, in time order")
    func borrowedChords() throws {
        let (events, _) = try simulate(try bundled("borrowed-chords"), duration: 30)
        let chords = Self.chords(events)
        #expect(chords.first?.time == 0 && chords.first?.name == "Dmaj7")
        #expect(zip(chords, chords.dropFirst()).allSatisfy { $0.time <= $1.time && $0.degree != $1.degree })
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("borrowed-chords"), duration: 30))
        for chord in chords {
            #expect(chord.chord == plan.performer.chords[chord.degree - 1], "\(chord)")
            if chord.degree == 2 { #expect(chord.name == "E7" && chord.numeral == "II") }
        }
        #expect(chords.contains { $0.degree == 2 }, "no ii in 30 s: \(chords.map(\.degree))")
    }

    @Test("The live status shows the chord of the last chord event with its numeral")
    func liveStatus() throws {
        let (events, _) = try simulate(try bundled("borrowed-chords"), duration: 20)
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("borrowed-chords"), duration: 20))
        let status = LiveStatus(output: TerminalOutput(descriptor: -1), plan: plan)
        try status.record(events, through: 20)
        let last = try #require(Self.chords(events).last)
        #expect(status.line(at: 20).contains("\(last.name) (\(last.numeral)) in D major"), "\(status.line(at: 20))")
    }
}
