// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import MIDIWire
import Testing

/// `MIDIClockFollower`: the tempo and position of a MIDI clock master from its messages and
/// the frames they arrived at, against scripted masters.
@Suite("Following a MIDI clock")
struct MIDIClockFollowerTests {
    /// A seeded generator of the jitter (the test must not depend on a global one).
    struct Jitter {
        var state: UInt64
        mutating func next(within range: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * range
        }
    }

    @Test("a clock at 120 bpm with ±2 ms of jitter on every pulse reads as 120 bpm ±1 %, beat after beat", arguments: [60.0, 120, 187])
    func steadyUnderJitter(bpm: Double) {
        let rate = 48_000.0
        var follower = MIDIClockFollower(sampleRate: rate)
        var jitter = Jitter(state: 7)
        _ = follower.receive(MIDIBytes(prefixOf: [0xFA])!, at: 0)
        let perPulse = 60 * rate / bpm / 24
        var worst = 0.0
        for pulse in 0..<(24 * 16) {
            _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: Double(pulse) * perPulse + jitter.next(within: 0.002 * rate))
            if pulse >= 24, let tempo = follower.tempo { worst = max(worst, abs(tempo - bpm) / bpm) }
        }
        #expect(worst < 0.01, "worst tempo error \(worst * 100) %")
        #expect(follower.pulses == 24 * 16 - 1)
        // Position: quarter 15 plus a little, and the frame of quarter 16 near where it falls.
        let quarters = follower.quarters(atFrame: Double(24 * 16 - 1) * perPulse) ?? -1
        #expect(abs(quarters - (16 - 1.0 / 24)) < 0.05, "\(quarters)")
        let frame = follower.frame(atQuarters: 16) ?? -1
        #expect(abs(frame - 16 * 24 * perPulse) < 0.003 * rate, "\(frame)")
    }

    /// Sends `count` pulses at `bpm`, a pulse apart from `frame` on (48 kHz); returns the frame
    /// the next would come at.
    static func pulses(_ follower: inout MIDIClockFollower, _ count: Int, at bpm: Double, from frame: Double) -> Double {
        var frame = frame
        for _ in 0..<count {
            _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: frame)
            frame += 60 * 48_000 / bpm / 24
        }
        return frame
    }

    @Test("a new tempo is followed within one beat")
    func tempoChange() {
        var follower = MIDIClockFollower(sampleRate: 48_000)
        _ = follower.receive(MIDIBytes(prefixOf: [0xFA])!, at: 0)
        let frame = Self.pulses(&follower, 48, at: 90, from: 0)
        #expect(abs((follower.tempo ?? 0) - 90) < 0.01)
        _ = Self.pulses(&follower, 25, at: 140, from: frame)
        #expect(abs((follower.tempo ?? 0) - 140) < 0.01, "\(follower.tempo ?? 0)")
    }

    @Test("a pulse lost after a settled beat (an xrun) is counted: the position stays the master's; a lost pulse in the first beat is not guessed")
    func lostPulse() {
        let rate = 48_000.0, perPulse = 60 * rate / 120 / 24
        func follow(losing lost: Set<Int>) -> MIDIClockFollower {
            var follower = MIDIClockFollower(sampleRate: rate)
            _ = follower.receive(MIDIBytes(prefixOf: [0xFA])!, at: 0)
            for pulse in 0..<(24 * 4) where !lost.contains(pulse) {
                _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: Double(pulse) * perPulse)
            }
            return follower
        }
        let losing = follow(losing: [40, 70])
        #expect(losing.pulses == 24 * 4 - 1)
        #expect(abs((losing.tempo ?? 0) - 120) < 0.01, "\(losing.tempo ?? 0)")
        #expect(abs((losing.frame(atQuarters: 4) ?? 0) - 4 * 24 * perPulse) < 1)
        // Within the first beat the spacing is not yet settled: the loss is not guessed.
        #expect(follow(losing: [10]).pulses == 24 * 4 - 2)
    }

    @Test("a pulse that comes late (0.7 of a pulse) and the next on time is no loss: the position is the master's")
    func latePulse() {
        let rate = 48_000.0, perPulse = 60 * rate / 120 / 24
        var follower = MIDIClockFollower(sampleRate: rate)
        _ = follower.receive(MIDIBytes(prefixOf: [0xFA])!, at: 0)
        for pulse in 0..<(24 * 4) {
            _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: (Double(pulse) + (pulse == 50 ? 0.7 : 0)) * perPulse)
        }
        #expect(follower.pulses == 24 * 4 - 1)
        #expect(abs((follower.frame(atQuarters: 4) ?? 0) - 4 * 24 * perPulse) < 1)
    }

    @Test("a master that halves its tempo is not taken for lost pulses: one pulse a pulse, and the new tempo within a beat")
    func halvedTempo() {
        var follower = MIDIClockFollower(sampleRate: 48_000)
        _ = follower.receive(MIDIBytes(prefixOf: [0xFA])!, at: 0)
        let halved = Self.pulses(&follower, 48, at: 120, from: 0)
        _ = Self.pulses(&follower, 48, at: 60, from: halved)
        #expect(follower.pulses == 95)
        #expect(abs((follower.tempo ?? 0) - 60) < 0.01, "\(follower.tempo ?? 0)")
    }

    @Test("Start, Stop, Song Position Pointer and Continue; a stalled clock holds the position")
    func transport() {
        var follower = MIDIClockFollower(sampleRate: 1000)
        #expect(follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: 0) == nil && follower.quarters(atFrame: 0) == nil, "pulses before Start count nothing")
        #expect(follower.receive(MIDIBytes(prefixOf: [0xFA])!, at: 0) == .started)
        for pulse in 0..<48 { _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: Double(pulse) * 10) }
        #expect(follower.pulses == 47)
        // No pulse for a long while: at most one pulse on, never more.
        #expect(abs((follower.quarters(atFrame: 10_000) ?? 0) - 48.0 / 24) < 1e-9)
        #expect(follower.receive(MIDIBytes(prefixOf: [0xFC])!, at: 480) == .stopped && !follower.isRunning)
        _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: 490)
        #expect(follower.pulses == 47, "pulses while stopped move nothing")
        #expect(follower.receive(MIDIBytes(prefixOf: [0xF2, 0x10, 0x00])!, at: 500) == .located(96), "SPP 16 sixteenths: 96 pulses")
        #expect(follower.receive(MIDIBytes(prefixOf: [0xFB])!, at: 510) == .continued)
        _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: 520)
        #expect(follower.pulses == 96, "the first pulse after Continue marks the position")
        // Its spacing is the one measured before the stop, so the position runs on from the first pulse.
        #expect(abs((follower.quarters(atFrame: 525) ?? 0) - 96.5 / 24) < 1e-9, "\(follower.quarters(atFrame: 525) ?? -1)")
        #expect(abs((follower.frame(atQuarters: 97.0 / 24) ?? 0) - 530) < 1e-9)
        _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: 530)
        #expect(follower.pulses == 97)
        #expect(follower.receive(MIDIBytes(prefixOf: [0xFA])!, at: 600) == .started && follower.pulses == 0)
        _ = follower.receive(MIDIBytes(prefixOf: [0xF8])!, at: 610)
        #expect(follower.tempo == nil, "after Start the tempo is measured afresh")
        #expect(follower.receive(MIDIBytes(prefixOf: [0xF2, 0x10])!, at: 600) == nil, "a short SPP is ignored")
    }
}
