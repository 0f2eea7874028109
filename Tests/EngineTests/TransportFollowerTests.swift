// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Testing

/// `TransportFollower`: a JACK-like transport's position, tempo and jumps, against scripted
/// cycles (256 frames at 48 kHz).
@Suite("Following a transport")
struct TransportFollowerTests {
    static let rate = 48_000.0, period = 256.0

    /// A master at `bpm` in 4/4 whose bar, beat and tick count from transport frame `frame`,
    /// its ticks truncated to whole numbers each period as `jack_transport` does when `truncates`.
    static func bbt(frame: Double, bpm: Double, ticks: Double? = nil) -> BarBeatTick {
        let beats = ticks.map { $0 / 1920 } ?? frame / rate * bpm / 60
        let bar = Int(beats / 4)
        let beat = Int(beats) - bar * 4
        return BarBeatTick(bar: bar + 1, beat: beat + 1, tick: ((beats - beats.rounded(.down)) * 1920).rounded(.down),
                           ticksPerBeat: 1920, beatsPerBar: 4, beatType: 4, beatsPerMinute: bpm)
    }

    static func snapshot(cycle: Int, frame: Double, rolling: Bool = true, bbt: BarBeatTick?, relocations: UInt64 = 0) -> TransportSnapshot {
        TransportSnapshot(cycle: 1_000_000 + Double(cycle) * period, frame: frame, sampleRate: rate, isRolling: rolling, bbt: bbt, relocations: relocations)
    }

    @Test("rolling at 120 bpm: the position runs on by frames, not by a master's truncated ticks; frame and position agree")
    func positionByFrames() {
        var follower = TransportFollower(sessionTempo: 100)
        var ticks = 0.0
        for cycle in 0..<2000 {
            let frame = Double(cycle) * Self.period
            // jack_transport adds whole ticks each period: 256 × 1920 × 2 / 48 000 = 20.48 → 20.
            _ = follower.take(Self.snapshot(cycle: cycle, frame: frame, bbt: Self.bbt(frame: frame, bpm: 120, ticks: ticks)))
            ticks += (Self.period * 1920 * 2 / Self.rate).rounded(.down)
        }
        let last = 1_000_000 + 1999 * Self.period
        let expected = 1999 * Self.period / Self.rate * 2   // quarter notes at 120 bpm
        #expect(abs((follower.quarters(atFrame: last) ?? -1) - expected) < 1e-9, "the truncated ticks led")
        #expect(follower.tempo == 120 && follower.isRolling)
        // Half a period on, and the frame of a quarter note ahead.
        #expect(abs((follower.quarters(atFrame: last + 128) ?? -1) - (expected + 128 / Self.rate * 2)) < 1e-9)
        #expect(abs((follower.frame(atQuarters: expected + 1) ?? -1) - (last + Self.rate / 2)) < 1e-6)
    }

    @Test("stopped, the position holds; a locate is a relocation at the master's bar; the first snapshot is none")
    func stopsAndLocates() {
        var follower = TransportFollower(sessionTempo: 120)
        #expect(follower.take(Self.snapshot(cycle: 0, frame: 0, rolling: false, bbt: Self.bbt(frame: 0, bpm: 120))) == nil)
        #expect(follower.quarters(atFrame: 1_000_000 + 10_000) == 0, "a stopped transport moved")
        // Located to bar 33 (64 s at 120 bpm): the shim counted a jump.
        let bar33 = 64 * Self.rate
        #expect(follower.take(Self.snapshot(cycle: 1, frame: bar33, rolling: false, bbt: Self.bbt(frame: bar33, bpm: 120), relocations: 1)) == .relocated)
        #expect(follower.quarters(atFrame: 0) == 128)
        #expect(follower.take(Self.snapshot(cycle: 2, frame: bar33, rolling: true, bbt: Self.bbt(frame: bar33, bpm: 120), relocations: 1)) == nil)
    }

    @Test("a new tempo counts from its snapshot; a master that recounts its bars there (jack_transport) rephases by the difference")
    func tempoChangeAndRephase() {
        var follower = TransportFollower(sessionTempo: 120)
        let change = 600.0 * Self.period
        for cycle in 0...600 {
            let frame = Double(cycle) * Self.period
            _ = follower.take(Self.snapshot(cycle: cycle, frame: frame, bbt: Self.bbt(frame: frame, bpm: 90)))
        }
        let counted = change / Self.rate * 1.5
        #expect(abs((follower.quarters(atFrame: 1_000_000 + change) ?? -1) - counted) < 1e-9)
        // 140 bpm, its bars recounted from frame 0 at 140.
        let recounted = Self.bbt(frame: change + Self.period, bpm: 140)
        let moved = follower.take(Self.snapshot(cycle: 601, frame: change + Self.period, bbt: recounted))
        let master = recounted.quarters
        let before = counted + Self.period / Self.rate * 1.5
        guard case .rephased(let quarters)? = moved else {
            Issue.record("no rephase: \(String(describing: moved))")
            return
        }
        #expect(abs(quarters - (master - before)) < 1e-9)
        #expect(follower.tempo == 140)
        // Without a timebase master: frames at the session's tempo, no rephase.
        var plain = TransportFollower(sessionTempo: 100)
        _ = plain.take(Self.snapshot(cycle: 0, frame: 4800, bbt: nil))
        #expect(plain.take(Self.snapshot(cycle: 1, frame: 4800 + Self.period, bbt: nil)) == nil)
        #expect(abs((plain.quarters(atFrame: 1_000_000 + Self.period) ?? -1) - (4800 + Self.period) / Self.rate * 100 / 60) < 1e-9)
    }

    @Test("a timebase master's meter reads as Clumsy writes it; one it cannot play is none")
    func meters() {
        var bbt = Self.bbt(frame: 0, bpm: 120)
        #expect(bbt.meter == "4/4")
        (bbt.beatsPerBar, bbt.beatType) = (7, 8)
        #expect(bbt.meter == "7/8" && bbt.quarterTempo == 60)
        (bbt.beatsPerBar, bbt.beatType) = (3.5, 4)
        #expect(bbt.meter == nil)
    }

    /// Issue 44 #1 and #6: a master at +∞ bpm, with 1e300 beats a bar, or at 1000 bpm is not
    /// followed (it used to reach an integer conversion and end the session with SIGILL): the
    /// position counts the transport's frames at the session's tempo, and every frame is finite.
    @Test("a timebase master's unusable or too fast bar, beat and tempo are not followed", arguments: ["+inf bpm", "1e300 beats", "1000 bpm", "NaN tick"])
    func refusesUnusableMasters(what: String) {
        var follower = TransportFollower(sessionTempo: 100)
        _ = follower.take(Self.snapshot(cycle: 0, frame: 0, bbt: Self.bbt(frame: 0, bpm: 120)))
        var bad = Self.bbt(frame: 256, bpm: 120)
        switch what {
        case "+inf bpm": bad.beatsPerMinute = .infinity
        case "1e300 beats": bad.beatsPerBar = 1e300
        case "1000 bpm": bad.beatsPerMinute = 1000
        default: bad.tick = .nan
        }
        _ = follower.take(Self.snapshot(cycle: 1, frame: 256, bbt: bad))
        #expect(follower.refused != nil && follower.last?.bbt == nil, "\(what) was followed")
        #expect(follower.tempo == 100, "\(what): followed at \(follower.tempo) bpm")
        let frame = follower.frame(atQuarters: 1)
        #expect(frame.map { $0.isFinite && abs($0 - 1_000_000 - 256 - (1 - 256 / Self.rate * 2) * 0.6 * Self.rate) < 1e-6 } == true, "\(String(describing: frame))")
    }

    @Test("a snapshot without a usable frame rate or frame is not taken")
    func refusesUnusableSnapshots() {
        var follower = TransportFollower(sessionTempo: 100)
        for (rate, frame) in [(0.0, 0.0), (.nan, 0), (1e300, 0), (48_000, .infinity), (48_000, 1e300)] {
            _ = follower.take(TransportSnapshot(cycle: 0, frame: frame, sampleRate: rate, isRolling: true, bbt: nil, relocations: 0))
            #expect(follower.last == nil, "rate \(rate), frame \(frame) was taken")
        }
    }
}
