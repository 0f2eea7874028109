// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import EventLog
import Performance
import Presets
import TestSupport
import Testing
import Text
@testable import Engine
@testable import Session
#if canImport(Glibc)
import Glibc
#endif

/// Hashes the event log lines of a session without keeping them (FNV-1a), and watches the
/// last stretch of the session for notes.
final class SoakSink: SessionSink {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    var lastKeyNote = -1.0
    var lastBassNote = -1.0
    var keyNotes = 0
    let voices: VoiceTable

    init(voices: VoiceTable) { self.voices = voices }

    func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            if case .note(let note) = event, note.kind == .on {
                if note.voice == .keys { lastKeyNote = note.time; keyNotes += 1 } else if note.voice == .bass { lastBassNote = note.time }
                #expect(note.speed.isFinite && note.time.isFinite)
            }
            guard let line = EventLogRecord(event, voices: voices)?.line else { continue }
            for byte in line.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
    }
    func finish(at time: Double) throws(SessionError) {}
    func abandon() {}
}

/// Long sessions of every bundled preset: no escapes, no NaN, notes to the end, repeatable.
/// CI runs a shortened soak; `make soak` sets CLUMSY_SOAK_SECONDS=86400 (24 hours).
@Suite struct SoakTests {
    static var seconds: Double {
        if let text = getenv("CLUMSY_SOAK_SECONDS"), let n = Double(String(cString: text)) { return n }
        return 300
    }

    @Test(arguments: PresetLibrary.bundled().map(\.name))
    func longSessionStaysSound(preset name: String) throws {
        let preset = try PresetLibrary.load(name)
        // The swarm (1000 balls) is hundreds of times more work per simulated second than
        // the others: it soaks for a 30th of the time (48 minutes in `make soak`).
        let duration = name == "swarm" ? max(10, Self.seconds / 30) : Self.seconds
        let window = min(3600, duration / 6)   // "the last hour", scaled down for short soaks
        func once() throws -> (SoakSink, Summary, Simulator) {
            let configuration = try Configuration(preset: preset, duration: duration)
            let simulator = Simulator(configuration: configuration)
            let sink = SoakSink(voices: simulator.plan.voices)
            let summary = try simulator.run(into: [sink])
            return (sink, summary, simulator)
        }
        let (first, summary, simulator) = try once()
        #expect(summary.escapes == 0, "\(name): \(summary.escapes) escapes")
        for ball in 0..<simulator.world.ballCount {
            #expect(simulator.world.position(ofBall: ball).isFinite && simulator.world.velocity(ofBall: ball).isFinite)
        }
        #expect(first.lastKeyNote > duration - window, "\(name): last key note at \(first.lastKeyNote) s of \(duration)")
        #expect(first.lastBassNote > duration - window, "\(name): last bass note at \(first.lastBassNote) s of \(duration)")
        print("soak \(name): \(Format.plain(duration)) s, \(summary.bassNotes) bass, \(summary.keyNotes) keys, \(summary.kicks) kicks, \(summary.drops) drops, \(summary.escapes) escapes")
        if duration <= 3600 || getenv("CLUMSY_SOAK_REPEAT") != nil {
            let (second, _, _) = try once()
            #expect(first.hash == second.hash, "\(name): a repeated session differed")
        }
    }
}
