// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Text
import Theory
import Vocabulary

/// A change to a running session from outside: OSC, a preset's scene at its bar line, a
/// replayed log, the plugin's ports, MIDI or a clock followed.
///
/// A control takes effect at the start of a step and is recorded in the event log with that
/// step, so a live set can be replayed exactly (`clumsy replay`). What each one takes, costs
/// and does is its row of `Control.table`; adding a control is a case here, its row (named as
/// the case), and what it does in `Simulator.apply(at:)` (docs/design.md shows the diff).
public enum Control: Sendable, Equatable {
    /// Gravity on the piano balls, m/s² (the range of the settings table's `gravity` row).
    case gravity(Double)
    /// The bass ball's constant speed, m/s (the `speed` row's range).
    case speed(Double)
    /// Kick the bass ball off in a new (seeded) direction.
    case kick
    /// Drop every piano ball again from the top (seeded spots).
    case drop
    /// Session tempo, beats per minute (the `tempo` row's range): the grid, beats and bars from
    /// then on, the MIDI clock and the MIDI file's tempo map.
    case tempo(Double)
    /// The session's key (tonic and mode): from then on the bouncers play their chords in it,
    /// the keys its chord tones and melody, the second voice its thirds or sixths. A session
    /// accepts only a key whose scale plays every switched-on bouncer's degree
    /// (`SessionPlan.keyChange(to:)`).
    case key(Key)
    /// A voice's channel volume (MIDI CC7, 0…127) from then on, on each of its channels: the
    /// voice by its event-log name (`bass`, `keys`, `second`, `drums`, a derived voice's name).
    case level(voice: String, value: Int)
    /// The chord of a degree (1…7) of the session's key takes over now, as when the bass ball
    /// strikes it (a chord event; the keys play its tones; a change waiting for its beat or bar
    /// line is replaced); the bass plays the root it next strikes. The LV2 plugin sends it for a
    /// chord held on its MIDI input.
    case chord(Int)
    /// Piano balls in play from then on, 0…the session's count: balls 1…n are in, the others
    /// leave the world (out of the Chipmunk space: they strike nothing); a ball coming back in is
    /// dropped from a seeded spot, as a drop places it.
    case balls(Int)
    /// The piano ball longest without a key hit is lifted back to the top and dropped again from
    /// a seeded spot, as a drop places it (MIDI in's single note): one ball, where `drop` moves all.
    case lift
    /// The piano ball longest without a key hit is dropped again from the top of the piano
    /// area at a place across it: 0 its left edge … 1000 its right (a click in the LV2 plugin's
    /// window, the iPad app's tap): `lift` at a place chosen instead of seeded.
    case place(Int)

    /// The controls, one row each, in the order a scene's controls take effect at its bar line.
    /// OSC in, the scenes' fields, the event log, `clumsy replay`, `--osc-in`'s help and the
    /// reference in docs/studio.md (`make docs`) are read from it.
    public static let table: [ControlRow] = [
        ControlRow("gravity", .number(Limits.gravity, make: Control.gravity), osc: "x",
                   effect: "gravity on the piano balls"),
        ControlRow("speed", .number(Limits.speed, make: Control.speed), osc: "x",
                   effect: "the bass ball's constant speed"),
        ControlRow("kick", .none(.kick), effect: "the bass ball sent off in a new, seeded direction"),
        ControlRow("drop", .none(.drop), cost: .everyBall,
                   effect: "every piano ball dropped again from the top, at seeded spots"),
        ControlRow("tempo", .number(Limits.tempo, make: Control.tempo), osc: "bpm",
                   effect: "the grid, beats and bars from then on (beats counted so far are kept); the MIDI clock's rate; "
                       + "a tempo event in the MIDI file"),
        ControlRow("key", .key, osc: "tonic mode", cost: .fixed(16), effect: "the key (below)"),
        ControlRow("level", .level, osc: "voice value",
                   effect: "the voice's channel volume (CC7) on each of its channels, in the MIDI file, the synthesizer and "
                       + "the live MIDI ports; logged with `\"voice\"`"),
        ControlRow("balls", .whole(ballsRange, expected: "a whole number of piano balls \(Limits.text(ballsRange)) "
                                     + "(at most the session's)", make: Control.balls),
                   osc: "count", cost: .everyBall,
                   effect: "balls 1…count stay in play, the others leave the world (they strike nothing); a ball coming "
                       + "back is dropped from a seeded spot (a `drop` each)"),
        ControlRow("chord", .whole(chordDegrees, expected: "a scale degree \(Limits.text(chordDegrees))", make: Control.chord),
                   osc: "degree", inScenes: false,
                   effect: "the chord of that degree of the key takes over at once, as when the bass ball strikes it (a chord "
                       + "event; the keys play its tones; a change waiting for its beat or bar line is replaced); the bass "
                       + "plays the root it next strikes"),
        ControlRow("lift", .none(.lift), effect: "the piano ball longest without a key hit dropped again from the top, at a seeded spot"),
        ControlRow("place", .whole(placeRange, expected: "a place across the piano area \(Limits.text(placeRange)) (left to right)",
                                   make: Control.place),
                   osc: "across", inScenes: false,
                   effect: "the piano ball longest without a key hit dropped again from the top of the piano area, at that "
                       + "place across it (0 the left edge, 1000 the right; the plugin's window sends it for a click)"),
    ]

    /// Places across the piano area a `place` names: thousandths of its width.
    public static let placeRange = 0...1000

    /// The row named `name`, if any.
    public static func row(named name: String) -> ControlRow? { table.first { $0.name == name } }

    /// The control's name in the event log, in scenes and in OSC paths (`/clumsy/<name>`): its
    /// case's, which is written once, as the name of its row of `table` (`ControlsTests` holds
    /// every case to a row). Not read in the stepping loop: the event log, OSC and messages.
    public var name: String {
        Mirror(reflecting: self).children.first?.label ?? String(describing: self)
    }

    /// The control's row of the table.
    public var row: ControlRow { Self.row(named: name)! }

    /// The control as the text printer shows it: its name, then its value (`gravity 3.5`,
    /// `key E♭ dorian`, `kick`).
    public var text: String {
        switch self {
        case .key(let key): return "key " + key.description
        case .level(let voice, let value): return "level \(voice) \(value)"
        default: return name + (value.map { " " + Format.plain($0) } ?? "")
        }
    }

    /// What applying the control costs a session of `pianoBalls` piano balls, in balls moved
    /// (its row's cost): a drop places every piano ball (each checked against the others for a
    /// clear spot), a key change revoices every voice, the rest touch one body or a few numbers.
    /// A live source spends a per-step budget of this cost (`OSCControlSource.budget`), so a
    /// flood of drops into a thousand-ball session is spread over steps instead of stalling one.
    public func cost(pianoBalls: Int) -> Int {
        switch row.cost {
        case .one: return 1
        case .everyBall: return max(1, pianoBalls)
        case .fixed(let cost): return cost
        }
    }

    /// The control's number, if it has one (a level's CC7 value).
    public var value: Double? {
        switch self {
        case .gravity(let x), .speed(let x), .tempo(let x): return x
        case .level(_, let value), .chord(let value), .balls(let value), .place(let value): return Double(value)
        case .kick, .drop, .key, .lift: return nil
        }
    }

    /// Builds a control from its name and value (nil: none), checked against its row (a
    /// number against its quantity's range in `Limits`, the flag's).
    /// Returns a sentence saying what is accepted when the name or value is not.
    public static func make(name: String, value: Double?) -> Result<Control, ControlRejection> {
        guard let row = row(named: name) else { return .failure(unknown(name)) }
        return row.make(value.map(ControlArgument.number) ?? .none)
    }

    /// The refusal of a name that is no control's, listing the names there are.
    public static func unknown(_ name: String) -> ControlRejection {
        ControlRejection("unknown control \(Quote.text(name)); accepted: \(table.map(\.name).joined(separator: ", "))")
    }

    /// `value` as a whole number in `range`; nil when it is missing, not whole or outside it
    /// (compared as a Double first, so no value can trap the conversion).
    static func whole(_ value: Double?, in range: ClosedRange<Int>) -> Int? {
        guard let value, value.isFinite, value == value.rounded(),
              value >= Double(range.lowerBound), value <= Double(range.upperBound) else { return nil }
        return Int(value)
    }

    /// Piano balls a `balls` control may name (the `piano.count` row's range); a session accepts
    /// at most its own count (`SessionPlan.rejection(of:)`).
    public static let ballsRange = 0...1000

    /// The degrees a `chord` control accepts.
    public static let chordDegrees = 1...7

    /// Channel volumes a `level` control accepts (MIDI CC7).
    public static let levelRange = 0...127

    /// A voice's level: `value` a whole number in `levelRange`. Whether the session has a voice
    /// of that name is checked apart (`SessionPlan.rejection(of:)`).
    public static func level(voice: String, value: Double?) -> Result<Control, ControlRejection> {
        guard !voice.isEmpty else { return .failure(ControlRejection("level needs a voice's name (bass, keys, …)")) }
        guard let level = whole(value, in: levelRange) else {
            return .failure(ControlRejection("level \(value.map(Format.plain) ?? "(none)") is not accepted; "
                + "expected a whole number \(Limits.text(levelRange)) (MIDI CC7)"))
        }
        return .success(.level(voice: voice, value: level))
    }

    /// A key change from a tonic and a mode as a preset writes them (`key.tonic`, `key.scale`,
    /// or `--key`, `--mode`): the same parsing, so the same spellings are accepted ("Eb", "F#",
    /// "B♭"; "dorian", "ionian", "harmonic minor", "minor-pentatonic", …). The tonic keeps its
    /// spelling unless its signature would need more than seven accidentals (D♯ major is E♭
    /// major), as in a preset. Whether the session can play the key is checked apart
    /// (`SessionPlan.keyChange(to:)`).
    public static func key(tonic: String, mode: String) -> Result<Control, ControlRejection> {
        guard let spelled = SpelledPitchClass(name: tonic) else {
            return .failure(ControlRejection("\"\(Quote.text(tonic))\" is not a tonic; accepted: \(KeyNames.acceptedTonics)"))
        }
        guard let scale = Scale.named(mode) else {
            return .failure(ControlRejection("\"\(Quote.text(mode))\" is not a known mode"
                + "\(Suggestion.didYouMean(mode, in: KeyNames.modeNames)); accepted: \(KeyNames.acceptedModes)"))
        }
        return .success(.key(Key(spelledTonic: spelled, scale: scale)))
    }
}

/// What a control's source gives after its name, before it is checked against the row: OSC's
/// arguments, a replayed log line's fields, a scene's value.
public enum ControlArgument: Sendable, Equatable {
    /// Nothing.
    case none
    /// One number (not yet checked: NaN, infinities and fractions are refused by the row).
    case number(Double)
    /// A tonic and a mode as written.
    case key(tonic: String, mode: String)
    /// A voice's name and a level (nil: missing).
    case level(voice: String, value: Double?)
}

/// A row of the controls table (`Control.table`): a live control's name, what it takes, whether
/// a preset's scenes may set it, what applying it costs and what it does. Every source reads a
/// control through `make(_:)`, so a control of a shape already here needs no change to any of
/// them.
public struct ControlRow: Sendable {
    /// What a control takes after its name.
    public enum Shape: Sendable {
        /// Nothing: the control is the one given.
        case none(Control)
        /// One number in a quantity's range (the flag's: the settings table's row of the same
        /// name takes its range and unit from `Limits` too).
        case number(Limits.Quantity, make: @Sendable (Double) -> Control)
        /// One whole number in `range`; `expected` says what it is and its range, for messages.
        case whole(ClosedRange<Int>, expected: String, make: @Sendable (Int) -> Control)
        /// A tonic and a mode, spelled as `--key` and `--mode` (`Control.key(tonic:mode:)`).
        case key
        /// A voice's event-log name and a level 0…127 (`Control.level(voice:value:)`).
        case level
    }

    /// What applying one control costs, in balls moved (`Control.cost(pianoBalls:)`).
    public enum Cost: Sendable {
        /// One body or a few numbers.
        case one
        /// Every piano ball of the session.
        case everyBall
        /// A fixed amount.
        case fixed(Int)
    }

    /// The name: in the event log, in a scene (`"gravity": 3.5`) and in OSC (`/clumsy/gravity`).
    public let name: String
    /// What it takes.
    public let shape: Shape
    /// Its arguments' names in OSC, for the reference (`tonic mode`); empty for none.
    public let osc: String
    /// Whether an entry of a preset's `scenes` may set it.
    public let inScenes: Bool
    /// What applying it costs.
    public let cost: Cost
    /// What it does, for the reference.
    public let effect: String

    init(_ name: String, _ shape: Shape, osc: String = "", inScenes: Bool = true, cost: Cost = .one, effect: String) {
        (self.name, self.shape, self.osc, self.inScenes, self.cost, self.effect) = (name, shape, osc, inScenes, cost, effect)
    }

    /// The range and unit of a number.
    private var numberRange: (range: ClosedRange<Double>, unit: String)? {
        guard case .number(let quantity, _) = shape else { return nil }
        return (quantity.range, quantity.unit)
    }

    /// The control `argument` asks for, or a sentence saying what is accepted.
    public func make(_ argument: ControlArgument) -> Result<Control, ControlRejection> {
        func fail(_ text: String) -> Result<Control, ControlRejection> { .failure(ControlRejection(text)) }
        switch (shape, argument) {
        case (.none(let control), .none):
            return .success(control)
        case (.none, _):
            return fail("\(name) takes no value")
        case (.number(_, let build), _):
            let (range, unit) = numberRange!
            guard case .number(let value) = argument else { return fail("\(name) needs one number in \(Limits.text(range, unit: unit))") }
            guard value.isFinite, range.contains(value) else {
                return fail("\(name) \(Format.plain(value)) is out of range; accepted: \(Limits.text(range, unit: unit))")
            }
            return .success(build(value))
        case (.whole(let range, let expected, let build), _):
            let value: Double? = if case .number(let value) = argument { value } else { nil }
            guard let whole = Control.whole(value, in: range) else {
                return fail("\(name) \(value.map(Format.plain) ?? "(none)") is not accepted; expected \(expected)")
            }
            return .success(build(whole))
        case (.key, .key(let tonic, let mode)):
            return Control.key(tonic: tonic, mode: mode)
        case (.key, _):
            return fail("key needs a tonic and a mode, not a number")
        case (.level, .level(let voice, let value)):
            return Control.level(voice: voice, value: value)
        case (.level, _):
            return fail("level needs a voice's name and a level \(Limits.text(Control.levelRange))")
        }
    }

    /// What OSC accepts after the path, for messages and the reference (plain text).
    public var accepted: String {
        switch shape {
        case .none: return "no arguments"
        case .number: return "one number (i, f, h or d), \(Limits.text(numberRange!.range, unit: numberRange!.unit))"
        case .whole(_, let expected, _): return "one number (i, or a float with no fraction): \(expected)"
        case .key: return "two strings, a tonic and a mode spelled as --key and --mode (Eb, F#, B♭; dorian, \"harmonic minor\")"
        case .level: return "a string, a voice's event-log name (bass, keys, second, drums, a derived voice's), "
            + "and a whole number \(Limits.text(Control.levelRange))"
        }
    }

    /// The OSC address (`/clumsy/key`).
    public var path: String { "/clumsy/" + name }

    /// The OSC message with its arguments' names (`/clumsy/key tonic mode`).
    public var message: String { path + (osc.isEmpty ? "" : " " + osc) }
}

/// Why a control was refused: a sentence for the log.
public struct ControlRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong and what is accepted.
    public var description: String
    /// Creates a rejection.
    public init(_ description: String) { self.description = description }
}
