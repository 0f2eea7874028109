// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A transport's bar, beat and tick, as a timebase master gives them (JACK's BBT).
public struct BarBeatTick: Sendable, Equatable {
    /// Bar, from 1.
    public var bar: Int
    /// Beat in the bar, from 1.
    public var beat: Int
    /// Tick in the beat, from 0.
    public var tick: Double
    public var ticksPerBeat: Double
    public var beatsPerBar: Double
    /// The note value of a beat (4: a quarter note).
    public var beatType: Double
    /// Beats (of `beatType`) a minute.
    public var beatsPerMinute: Double

    public init(bar: Int, beat: Int, tick: Double, ticksPerBeat: Double, beatsPerBar: Double, beatType: Double, beatsPerMinute: Double) {
        (self.bar, self.beat, self.tick, self.ticksPerBeat) = (bar, beat, tick, ticksPerBeat)
        (self.beatsPerBar, self.beatType, self.beatsPerMinute) = (beatsPerBar, beatType, beatsPerMinute)
    }

    /// Quarter notes since bar 1, beat 1.
    public var quarters: Double {
        (Double(bar - 1) * beatsPerBar + Double(beat - 1) + tick / ticksPerBeat) * 4 / beatType
    }

    /// The tempo in quarter notes a minute.
    public var quarterTempo: Double { beatsPerMinute * 4 / beatType }

    /// True when a position can be counted from it at a tempo in `tempos` (quarter notes a
    /// minute): its tick finite, at least one tick a beat, a beat of a note value 1…1024, more
    /// than 0 and at most 1024 beats a bar. A timebase master may send anything (+∞ bpm, 1e300
    /// beats a bar): what is not usable is not followed, and no frame is computed from it.
    public func isUsable(tempos: ClosedRange<Double>) -> Bool {
        tick.isFinite && ticksPerBeat.isFinite && ticksPerBeat >= 1 && (1...1024).contains(beatType)
            && beatsPerBar > 0 && beatsPerBar <= 1024 && tempos.contains(quarterTempo)
    }

    /// The meter as Clumsy writes it (`7/8`), when it is one Clumsy plays: a whole number of
    /// beats (1…32) of a power-of-two note value (1…32).
    public var meter: String? {
        let beats = beatsPerBar, unit = beatType
        guard beats == beats.rounded(), (1...32).contains(beats), [1.0, 2, 4, 8, 16, 32].contains(unit) else { return nil }
        return "\(Int(beats))/\(Int(unit))"
    }
}

/// What a transport said in one process cycle.
public struct TransportSnapshot: Sendable, Equatable {
    /// The server's frame time at the cycle's start (unwrapped: it only grows).
    public var cycle: Double
    /// The transport's frame at the cycle's start.
    public var frame: Double
    public var sampleRate: Double
    /// True while the transport rolls.
    public var isRolling: Bool
    /// Bar, beat and tick, with a timebase master.
    public var bbt: BarBeatTick?
    /// Relocations counted so far (frame jumps).
    public var relocations: UInt64

    public init(cycle: Double, frame: Double, sampleRate: Double, isRolling: Bool, bbt: BarBeatTick?, relocations: UInt64) {
        (self.cycle, self.frame, self.sampleRate, self.isRolling, self.bbt, self.relocations) = (cycle, frame, sampleRate, isRolling, bbt, relocations)
    }
}

/// Follows a transport (JACK's), as `MIDIClockFollower` follows a MIDI clock: where it is in
/// quarter notes at any server frame, its tempo, and when it jumps.
///
/// - **Position.** Counted by the transport's frames at the tempo, from where a timebase
///   master's bar, beat and tick put it when the follower first saw the transport or it last
///   jumped (without a master, from frame 0 at the session's tempo). Frames, not the master's
///   running ticks: a master may count ticks in whole numbers per period (`jack_transport`
///   loses 2 % so), while its frames are the server's.
/// - **Tempo.** The master's; a change counts from the snapshot that shows it, where the
///   master's bar, beat and tick place the position again (a `rephase` when they moved it).
/// - **Jumps.** A relocation (the transport's frame jumped: a locate) is the session's to
///   rebuild; the position counts from the master's bar, beat and tick there.
public struct TransportFollower: Sendable {
    /// The session's tempo, quarter notes a minute: the tempo without a timebase master.
    public var sessionTempo: Double
    /// The tempos a master is followed at (quarter notes a minute): a bar, beat and tick at
    /// another tempo, or not usable (`BarBeatTick.isUsable`), are as if no master gave them.
    public let tempos: ClosedRange<Double>
    /// The last bar, beat and tick that were not followed (for the session to say so).
    public private(set) var refused: BarBeatTick?
    /// The last snapshot taken (with only a usable bar, beat and tick).
    public private(set) var last: TransportSnapshot?
    private var relocations: UInt64?
    /// The position `quarters` at transport frame `frame`, counted on at `tempo`.
    private var origin: (frame: Double, quarters: Double, tempo: Double)?

    public init(sessionTempo: Double, tempos: ClosedRange<Double> = 20...400) {
        self.sessionTempo = sessionTempo
        self.tempos = tempos
    }

    /// What a snapshot changed.
    public enum Change: Sendable, Equatable {
        /// The transport jumped (a locate): the session is rebuilt at its new position.
        case relocated
        /// The master's beats moved by this many quarter notes while its frames ran on (at a
        /// new tempo, `jack_transport` recounts its bars from frame 0): the session plays on in
        /// the master's beat phase.
        case rephased(Double)
    }

    /// Quarter notes the master's beats may move at a new tempo before they count as moved.
    public static let rephaseTolerance = 0.001

    /// Takes the snapshot of a cycle; returns what changed that the session must act on. A
    /// snapshot whose frame rate is not 1 Hz…10 MHz, or whose frames are beyond ±2⁵³, is not taken.
    public mutating func take(_ taken: TransportSnapshot) -> Change? {
        guard Self.isUsable(taken) else { return nil }
        var snapshot = taken
        if let bbt = snapshot.bbt, !bbt.isUsable(tempos: tempos) {
            (refused, snapshot.bbt) = (bbt, nil)
        }
        defer { last = snapshot }
        let tempo = snapshot.bbt?.quarterTempo ?? sessionTempo
        guard let origin, snapshot.relocations == relocations else {
            let jumped = relocations != nil
            relocations = snapshot.relocations
            let quarters = snapshot.bbt?.quarters ?? snapshot.frame / snapshot.sampleRate * tempo / 60
            origin = (snapshot.frame, quarters, tempo)
            return jumped ? .relocated : nil
        }
        guard tempo != origin.tempo else { return nil }
        // A new tempo: a master's bar, beat and tick are exact where it sets one (as at a
        // locate); where they differ from the count by frames, its beats moved.
        let counted = position(atTransportFrame: snapshot.frame, rate: snapshot.sampleRate)
        let master = snapshot.bbt?.quarters ?? counted
        self.origin = (snapshot.frame, master, tempo)
        return abs(master - counted) > Self.rephaseTolerance ? .rephased(master - counted) : nil
    }

    /// True when a snapshot's frames and rate are ones a position can be counted from.
    public static func isUsable(_ snapshot: TransportSnapshot) -> Bool {
        (1...1e7).contains(snapshot.sampleRate) && abs(snapshot.frame) <= 0x1p53 && abs(snapshot.cycle) <= 0x1p53
    }

    private func position(atTransportFrame frame: Double, rate: Double) -> Double {
        guard let origin else { return 0 }
        return origin.quarters + (frame - origin.frame) / rate * origin.tempo / 60
    }

    /// True while the transport rolls.
    public var isRolling: Bool { last?.isRolling ?? false }

    /// The master's tempo (quarter notes a minute), or the session's without a timebase master.
    public var tempo: Double { origin?.tempo ?? sessionTempo }

    /// The position, quarter notes, at server frame `frame`: the last cycle's, run on at the
    /// tempo while rolling (nil before the first snapshot).
    public func quarters(atFrame frame: Double) -> Double? {
        guard let last else { return nil }
        let position = position(atTransportFrame: last.frame, rate: last.sampleRate)
        return last.isRolling ? position + (frame - last.cycle) / last.sampleRate * tempo / 60 : position
    }

    /// The server frame at which a rolling transport reaches `quarters` at its tempo (nil
    /// before the first snapshot).
    public func frame(atQuarters quarters: Double) -> Double? {
        guard let last else { return nil }
        let position = position(atTransportFrame: last.frame, rate: last.sampleRate)
        return last.cycle + (quarters - position) * 60 / tempo * last.sampleRate
    }
}
