// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import Performance
import TestSupport
import Testing
@testable import Engine

@Suite struct SimulatorTests {
    @Test func sameSeedSameSessionOtherSeedAnother() throws {
        let preset = try bundled("original")
        let a = try simulate(preset, duration: 30).events
        let b = try simulate(preset, duration: 30).events
        let c = try simulate(preset, duration: 30, overrides: Overrides(seed: 2)).events
        #expect(a == b)
        #expect(a != c)
        #expect(a.count > 50)
    }

    @Test func eventsAreInTimeOrderAndNotesBalance() throws {
        for name in ["default", "minor-storm", "phrygian-scatter"] {
            let (events, summary) = try simulate(try bundled(name), duration: 60)
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(name) out of order")
            var sounding: [Int: Int] = [:]
            for case .note(let note) in events {
                let id = note.voice.rawValue * 128 + note.note
                sounding[id, default: 0] += note.kind == .on ? 1 : -1
                #expect((0...1).contains(sounding[id]!), "\(name): note \(note.note) doubled or unmatched at \(note.time)")
                if note.kind == .on { #expect((1...127).contains(note.velocity)) }
            }
            #expect(sounding.values.allSatisfy { $0 == 0 }, "\(name): notes left sounding")
            #expect(summary.escapes == 0)
            #expect(summary.keyNotes > 0 && summary.bassNotes > 1)
        }
    }

    @Test func opensWithTheTonicOnChordOne() throws {
        let (events, _) = try simulate(try bundled("original"), duration: 1)
        // Chord I takes over at 0, then its root sounds.
        guard case .chord(let chord)? = events.first else { Issue.record("no opening chord: \(events.prefix(2))"); return }
        #expect(chord.time == 0 && chord.degree == 1 && chord.name == "Cmaj7" && chord.numeral == "I")
        guard case .note(let first)? = events.dropFirst().first else { Issue.record("no first note"); return }
        #expect(first.time == 0 && first.voice == .bass && first.note == 48 && first.degree == 1)
    }

    @Test func gravityAndSpeedApplyFromTheFirstStep() throws {
        var preset = try bundled("original")
        preset.piano.count = 1
        let configuration = try Configuration(preset: preset, overrides: Overrides(gravity: 20, speed: 3), duration: 0.5)
        let simulator = Simulator(configuration: configuration)
        let start = simulator.world.position(ofBall: 1)
        simulator.world.step()
        #expect(simulator.world.velocity(ofBall: 1).y < 0)
        #expect(abs(simulator.world.velocity(ofBall: 0).length - 3) < 1e-9)
        for _ in 0..<23 { simulator.world.step() }
        let fallen = start.y - simulator.world.position(ofBall: 1).y
        #expect(abs(fallen - 0.5 * 20 * 0.1 * 0.1) < 0.01)
    }

    @Test func noEscapesAtTheExtremes() throws {
        for (gravity, speed) in [(100.0, 20.0), (0.0, 0.1), (100.0, 0.1), (0.0, 20.0)] {
            let (_, summary) = try simulate(try bundled("original"), duration: 120, overrides: Overrides(gravity: gravity, speed: speed))
            #expect(summary.escapes == 0, "gravity \(gravity) speed \(speed)")
        }
    }

    @Test func bassBallIsKickedWhenItFindsNoBouncer() throws {
        // One tiny bouncer in a corner: the ball will go long stretches without hitting it.
        var preset = try decode(#"{"bass": {"bouncers": [7], "bouncerRadius": 0.05, "kickAfter": 2}}"#)
        preset.piano.count = 0
        let (events, summary) = try simulate(preset, duration: 60)
        #expect(summary.kicks > 0)
        var last = 0.0
        for event in events {
            if case .kick(let t) = event { last = t }
            if case .note(let n) = event, n.voice == .bass, n.kind == .on { last = n.time }
        }
        #expect(60 - last < 2.1)
    }

    @Test func restingPianoBallsAreDroppedAgain() throws {
        let preset = try decode(#"{"gravity": 9.81, "piano": {"count": 2, "restitution": 0.5, "redropAfter": 3}}"#)
        let (events, summary) = try simulate(preset, duration: 40)
        #expect(summary.drops > 0)
        let lastKeyNote = events.reversed().compactMap { event -> Double? in
            if case .note(let n) = event, n.voice == .keys, n.kind == .on { return n.time } else { return nil }
        }.first ?? 0
        #expect(lastKeyNote > 35)
    }

    @Test func interruptionStopsCleanlyWithEveryNoteEnded() throws {
        let configuration = try Configuration(preset: try bundled("original"), duration: 600)
        let stop = StopSignal()
        let sink = CollectingSink()
        var steps = 0
        let summary = try Simulator(configuration: configuration).run(into: [sink], stop: stop, pacer: { _ in
            steps += 1
            if steps == 2400 { stop.raise(2) }
        })
        #expect(summary.wasInterrupted)
        #expect(abs(summary.duration - 10) < 0.01)
        #expect(sink.finishedAt == summary.duration)
        let ons = sink.events.filter { if case .note(let n) = $0 { return n.kind == .on } else { return false } }.count
        let offs = sink.events.filter { if case .note(let n) = $0 { return n.kind == .off } else { return false } }.count
        #expect(ons == offs)
    }
}
