// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIWire
import Performance
import Studio
import TestSupport
import Testing
import Vocabulary
@testable import Engine
@testable import Live

/// A MIDI port that records what it is sent and can be made to "go away".
final class RecordingPort: LiveMIDIPort {
    let portNames: [String]
    var sent: [(port: Int, seconds: Double, bytes: [UInt8])] = []
    var waits: [Double] = []
    var isGone = false
    var closed = false
    init(ports: [String]) { portNames = ports }
    func send(_ message: MIDIBytes, port: Int, at seconds: Double) -> Bool {
        guard !isGone else { return false }
        sent.append((port, seconds, message.bytes))
        return true
    }
    func wait(until seconds: Double, shouldStop: () -> Bool) { waits.append(seconds) }
    func close(timeout: Double) { closed = true }
    var deliveryReport: String? { nil }
}

@Suite struct LiveMIDISinkTests {
    private func session(_ seconds: Double, port: RecordingPort, preset: String = "original", controls: [TimedControl] = []) throws -> (LiveMIDISink, [SessionEvent]) {
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled(preset), duration: seconds))
        let sink = LiveMIDISink(port: port, voices: plan.voices, clock: true, tempo: plan.clock.tempo, stop: nil, what: "the test port")
        let collector = CollectingSink()
        try Simulator(plan: plan).run(into: [sink, collector], pacer: { sink.pace(until: $0) },
                                                        controls: ControlSources([ReplayControls(controls), sink]))
        return (sink, collector.events)
    }

    @Test func notesGoToTheirVoicePortAtTheirTimeWithTheClockAround() throws {
        let voices = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10)).voices
        let port = RecordingPort(ports: LiveMIDISink.portNames(voices: voices, clock: true))
        #expect(port.portNames == ["bass", "keys", "clock"])
        let (_, events) = try session(10, port: port)
        let notes = events.compactMap { event -> NoteEvent? in if case .note(let n) = event { return n } else { return nil } }
        // Pan changes (CC10) go to their voice's port too, before the note they place.
        let sentNotes = port.sent.filter { $0.port < 2 && $0.bytes[0] & 0xF0 != 0xB0 }
        #expect(sentNotes.count == notes.count)
        // Each note on the channel the MIDI file gives it (the keys spread over their pan zones).
        var router = NoteRouter(voices: voices)
        for (sent, note) in zip(sentNotes, notes) {
            #expect(sent.port == note.voice.rawValue && sent.seconds == note.time)
            #expect(Int(sent.bytes[0] & 0x0F) == router.channel(for: note) && Int(sent.bytes[1]) == note.note)
            #expect(sent.bytes[0] & 0xF0 == (note.kind == .on ? 0x90 : 0x80))
        }
        let clock = port.sent.filter { $0.port == 2 }
        #expect(clock.first?.bytes == [0xFA] && clock.first?.seconds == 0, "Start at the first note")
        #expect(clock.last?.bytes == [0xFC] && clock.last?.seconds == 10, "Stop at the end")
        let pulses = clock.filter { $0.bytes == [0xF8] }
        #expect(pulses.count == 481)   // 24 per beat at 120 bpm for 10 s, plus the one at 0
        for (a, b) in zip(pulses, pulses.dropFirst()) { #expect(abs(b.seconds - a.seconds - 1.0 / 48) < 1e-9) }
        // Sent in time order on every port (the JACK ring is a queue), paced after every step.
        #expect(zip(port.sent, port.sent.dropFirst()).allSatisfy { $0.seconds <= $1.seconds + 1e-12 })
        #expect(port.waits.count == 2400 && port.closed)
    }

    @Test func everyVoiceOfTheTableHasItsPortAndChannel() throws {
        // pulse has a melody and drums: a fourth port for the drums, on the voice's channel (10, the GM kit).
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("pulse"), duration: 10))
        let port = RecordingPort(ports: LiveMIDISink.portNames(voices: plan.voices, clock: true))
        #expect(port.portNames == ["bass", "keys", "melody", "drums", "clock"])
        let (_, events) = try session(10, port: port, preset: "pulse")
        let drumNotes = events.filter { if case .note(let n) = $0 { return n.voice.rawValue == 3 } else { return false } }
        let sentDrums = port.sent.filter { $0.port == 3 && $0.bytes[0] & 0xF0 != 0xB0 }
        #expect(!drumNotes.isEmpty && sentDrums.count == drumNotes.count)
        #expect(sentDrums.allSatisfy { $0.bytes[0] & 0x0F == 9 })
        #expect(port.sent.filter { $0.port == 4 }.first?.bytes == [0xFA])
    }

    @Test func aTempoChangeChangesThePulseRateFromThen() throws {
        let voices = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10)).voices
        let port = RecordingPort(ports: LiveMIDISink.portNames(voices: voices, clock: true))
        _ = try session(10, port: port, controls: [TimedControl(step: 1200, control: .tempo(60))])
        let pulses = port.sent.filter { $0.port == 2 && $0.bytes == [0xF8] }
        // 5 s at 120 bpm (240 pulses from 0) and 5 s at 60 bpm (120 more), ±1.
        #expect(abs(pulses.count - 361) <= 1, "\(pulses.count) pulses")
        let late = pulses.filter { $0.seconds > 5.1 }
        for (a, b) in zip(late, late.dropFirst()) { #expect(abs(b.seconds - a.seconds - 1.0 / 24) < 1e-9) }
    }

    @Test func aPortThatGoesAwayEndsTheSessionCleanlyWithAnIOError() throws {
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 60))
        let port = RecordingPort(ports: LiveMIDISink.portNames(voices: plan.voices, clock: false))
        let sink = LiveMIDISink(port: port, voices: plan.voices, clock: false, tempo: 120, stop: nil, what: "the test port")
        let collector = CollectingSink()
        var steps = 0
        let summary = try Simulator(plan: plan).run(into: [sink, collector], pacer: { _ in
            steps += 1
            if steps == 480 { port.isGone = true }
        }, controls: sink)
        #expect(summary.wasInterrupted && abs(summary.duration - 2) < 0.01, "ended at \(summary.duration) s")
        #expect(collector.finishedAt != nil && !collector.abandoned, "the other outputs were completed")
        #expect(sink.failure?.exitStatus == 74 && sink.failure?.description.contains("the test port") == true)
    }
}
