// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#endif

/// A time signature with its strong beats.
public struct Meter: Sendable, Hashable, CustomStringConvertible {
    /// Beats per bar.
    public var beats: Int
    /// Note value of a beat: 4 (quarter) or 8 (eighth).
    public var unit: Int
    /// Beats (0-based) that get an accent besides the downbeat (beat 0).
    public var strongBeats: [Int]

    /// The meters a preset or `--meter` may name.
    public static let all: [Meter] = [
        Meter(beats: 4, unit: 4, strongBeats: [2]),          // 1 2 3 4: 1 and 3
        Meter(beats: 3, unit: 4, strongBeats: []),           // 1 2 3
        Meter(beats: 6, unit: 8, strongBeats: [3]),          // 1 2 3 4 5 6: 1 and 4
        Meter(beats: 5, unit: 4, strongBeats: [3]),          // 3 + 2
        Meter(beats: 7, unit: 8, strongBeats: [2, 4]),       // 2 + 2 + 3
    ]

    /// The meter written as `4/4`, `3/4`, `6/8`, `5/4` or `7/8`; nil for any other text.
    public init?(_ text: String) {
        guard let meter = Self.all.first(where: { $0.description == text }) else { return nil }
        self = meter
    }

    /// Creates a meter.
    public init(beats: Int, unit: Int, strongBeats: [Int]) {
        self.beats = beats
        self.unit = unit
        self.strongBeats = strongBeats
    }

    /// "4/4".
    public var description: String { "\(beats)/\(unit)" }
}

/// The grid notes are placed on: off, or a note value.
public enum Grid: Sendable, Hashable, CustomStringConvertible {
    /// Notes sound when they are struck.
    case off
    /// Notes sound on the next line of a grid this many quarter notes apart.
    case step(quarters: Double, name: String)

    /// Every grid a preset or `--quantize` may name, `off` first.
    public static let all: [Grid] = [
        .off, .step(quarters: 1, name: "1/4"), .step(quarters: 0.5, name: "1/8"), .step(quarters: 0.25, name: "1/16"),
        .step(quarters: 0.125, name: "1/32"), .step(quarters: 1.0 / 3, name: "1/8t"), .step(quarters: 1.0 / 6, name: "1/16t"),
    ]

    /// The grid named `text` (`off`, `1/4`, `1/8`, `1/16`, `1/32`, `1/8t`, `1/16t`); nil for any other text.
    public init?(_ text: String) {
        guard let grid = Self.all.first(where: { $0.description == text }) else { return nil }
        self = grid
    }

    /// The grid's name.
    public var description: String {
        switch self {
        case .off: return "off"
        case .step(_, let name): return name
        }
    }

    /// True unless `off`.
    public var isOn: Bool { self != .off }
}

/// Musical time: tempo, meter, the quantisation grid and its feel. Pure arithmetic on seconds.
public struct Clock: Sendable, Hashable {
    /// Quarter notes per minute.
    public var tempo: Double
    /// Time signature.
    public var meter: Meter
    /// Quantisation grid.
    public var grid: Grid
    /// How far a note moves from its hit toward its grid line: 1 = onto the line, 0 = not at all.
    public var strength: Double
    /// Every second grid line is delayed by this fraction of a grid step, 0…0.75.
    public var swing: Double
    /// Seconds added to a session time to get the time it would be had the current tempo held
    /// from the start: 0 until a live tempo change (`changeTempo`) keeps the beats continuous.
    public private(set) var shift = 0.0

    /// Creates a clock.
    public init(tempo: Double = 120, meter: Meter = Meter("4/4")!, grid: Grid = .off, strength: Double = 1, swing: Double = 0) {
        self.tempo = tempo
        self.meter = meter
        self.grid = grid
        self.strength = strength
        self.swing = swing
    }

    /// Changes the tempo at `time` (a live control). The quarter notes counted so far stay as
    /// they are; beat, bar and grid lines after `time` follow the new tempo.
    public mutating func changeTempo(to tempo: Double, at time: Double) {
        let quarters = (time + shift) / quarterSeconds
        self.tempo = tempo
        shift = quarters * quarterSeconds - time
    }

    /// Seconds per quarter note.
    public var quarterSeconds: Double { 60 / tempo }
    /// Seconds per beat (a quarter in x/4, an eighth in x/8).
    public var beatSeconds: Double { quarterSeconds * 4 / Double(meter.unit) }
    /// Seconds per bar.
    public var barSeconds: Double { beatSeconds * Double(meter.beats) }
    /// Seconds per grid step (0 when the grid is off).
    public var stepSeconds: Double {
        if case .step(let quarters, _) = grid { return quarters * quarterSeconds }
        return 0
    }

    /// When a note struck at `time` sounds: the first grid line at or after it (every second
    /// line swung late), moved there by `strength`. Never before `time`; `time` itself when off.
    public func place(_ time: Double) -> Double {
        let step = stepSeconds
        guard step > 0 else { return time }
        let time = time + shift
        let first = (time / step).rounded(.down) - 1
        var line = time
        for n in 0..<4 {
            let index = first + Double(n)
            let candidate = index * step + (index.truncatingRemainder(dividingBy: 2) != 0 ? swing * step : 0)
            if candidate >= time { line = candidate; break }
        }
        return (strength >= 1 ? line : time + strength * (line - time)) - shift
    }

    /// The first beat line at or after `time`.
    public func nextBeat(atOrAfter time: Double) -> Double { nextLine(time, every: beatSeconds) }

    /// The first bar line at or after `time`.
    public func nextBar(atOrAfter time: Double) -> Double { nextLine(time, every: barSeconds) }

    private func nextLine(_ time: Double, every period: Double) -> Double {
        let time = time + shift
        var line = (time / period).rounded(.down) * period
        if line < time { line = ((time / period).rounded(.down) + 1) * period }
        return line - shift
    }

    /// The bar `time` (seconds) falls in, 0-based from the session's start, counted on the bar
    /// lines (a tempo change keeps the bars counted before it); a time within a millionth of a
    /// bar before a line counts as on it, so a note placed on the line is in the new bar.
    public func bar(at time: Double) -> Int { Int(((time + shift) / barSeconds + 1e-6).rounded(.down)) }

    /// Beat `index` (0, 1, 2, … from the session's start) as a time, seconds.
    public func beatTime(_ index: Int) -> Double { Double(index) * beatSeconds - shift }

    /// Where `time` falls: its beat within the bar (0-based) if it lies on a beat line (within a
    /// microsecond), else nil.
    public func beatInBar(at time: Double) -> Int? {
        let beats = (time + shift) / beatSeconds
        let nearest = beats.rounded()
        guard abs(nearest - beats) * beatSeconds < 1e-6 else { return nil }
        let index = Int(nearest) % meter.beats
        return index < 0 ? index + meter.beats : index
    }
}

/// Velocity shaping by the meter: accents on strong beats and a floor under ghost notes.
public struct Feel: Sendable, Hashable {
    /// Added to a note that sounds on beat 1 of a bar (quantised notes only).
    public var downbeatAccent: Int
    /// Added to a note that sounds on another strong beat of the meter (quantised notes only).
    public var strongAccent: Int
    /// Velocities 1…127 are mapped linearly onto velocityFloor…127 (0 or 1 = unchanged).
    public var velocityFloor: Int
    /// How far a phrase swells: velocities at a phrase's first and last bar lines are scaled by
    /// 1 − swell, rising to full a little after its middle and falling again (0 = unchanged).
    public var swell = 0.0
    /// Bars in the phrase that swells.
    public var phraseBars = 4

    /// Creates a feel.
    public init(downbeatAccent: Int = 12, strongAccent: Int = 6, velocityFloor: Int = 0) {
        self.downbeatAccent = downbeatAccent
        self.strongAccent = strongAccent
        self.velocityFloor = velocityFloor
    }

    /// `velocity` (1…127) scaled by the phrase's swell at `bar` bars from the start (a fraction
    /// of a bar counts): 1 − swell·(1 − sin(π·x^1.4)) at x, the fraction of the phrase gone, so the
    /// swell peaks at 61 % of the phrase. Not below 1.
    public func swelled(_ velocity: Int, bar: Double) -> Int {
        guard swell > 0 else { return velocity }
        let phrase = Double(max(1, phraseBars))
        let x = max(0, bar.truncatingRemainder(dividingBy: phrase) / phrase)
        let factor = 1 - swell * (1 - sin(Double.pi * pow(x, 1.4)))
        return max(1, Int((Double(velocity) * factor).rounded()))
    }

    /// `velocity` (1…127) lifted onto the floor.
    public func floored(_ velocity: Int) -> Int {
        guard velocityFloor > 1 else { return velocity }
        let lifted = Double(velocityFloor) + Double(velocity - 1) * Double(127 - velocityFloor) / 126
        return min(127, max(1, Int(lifted.rounded())))
    }
}
