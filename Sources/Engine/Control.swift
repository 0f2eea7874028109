// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Presets
import Theory
import Vocabulary

/// A change to a running session from outside (OSC today, any live control later).
///
/// A control takes effect at the start of a step and is recorded in the event log with that
/// step, so a live set can be replayed exactly (`clumsy replay`).
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

    /// The control's name in the event log and in OSC paths (`/clumsy/<name>`).
    public var name: String {
        switch self {
        case .gravity: return "gravity"
        case .speed: return "speed"
        case .kick: return "kick"
        case .drop: return "drop"
        case .tempo: return "tempo"
        case .key: return "key"
        case .level: return "level"
        case .chord: return "chord"
        case .balls: return "balls"
        }
    }

    /// The control as the text printer shows it: its name, then its value (`gravity 3.5`,
    /// `key E♭ dorian`, `kick`).
    public var text: String {
        switch self {
        case .key(let key): return "key " + key.description
        case .level(let voice, let value): return "level \(voice) \(value)"
        default: return name + (value.map { " " + Format.plain($0) } ?? "")
        }
    }

    /// What applying the control costs a session of `pianoBalls` piano balls, in balls moved:
    /// a drop places every piano ball (each checked against the others for a clear spot), a
    /// key change revoices every voice, the rest touch one body or a few numbers. A live source
    /// spends a per-step budget of this cost (`OSCControlSource.budget`), so a flood of drops
    /// into a thousand-ball session is spread over steps instead of stalling one.
    public func cost(pianoBalls: Int) -> Int {
        switch self {
        case .drop, .balls: return max(1, pianoBalls)
        case .key: return 16
        case .gravity, .speed, .kick, .tempo, .level, .chord: return 1
        }
    }

    /// The control's number, if it has one.
    public var value: Double? {
        switch self {
        case .gravity(let x), .speed(let x), .tempo(let x): return x
        case .level(_, let value), .chord(let value), .balls(let value): return Double(value)
        case .kick, .drop, .key: return nil
        }
    }

    /// Builds a control from its name and value, checking the value against the range of the
    /// settings table's row of the same name (the flag's range).
    /// Returns a sentence saying what is accepted when the name or value is not.
    public static func make(name: String, value: Double?) -> Result<Control, ControlRejection> {
        func number(_ build: (Double) -> Control) -> Result<Control, ControlRejection> {
            let row = Settings.setting(flag: name)!
            let range = row.numberRange!
            let unit = row.unit
            guard let value else { return .failure(ControlRejection("\(name) needs one number in \(Limits.text(range, unit: unit))")) }
            guard value.isFinite, range.contains(value) else {
                return .failure(ControlRejection("\(name) \(Format.plain(value)) is out of range; accepted: \(Limits.text(range, unit: unit))"))
            }
            return .success(build(value))
        }
        switch name {
        case "gravity": return number(Control.gravity)
        case "speed": return number(Control.speed)
        case "tempo": return number(Control.tempo)
        case "kick", "drop":
            guard value == nil else { return .failure(ControlRejection("\(name) takes no value")) }
            return .success(name == "kick" ? .kick : .drop)
        case "key":
            return .failure(ControlRejection("key needs a tonic and a mode, not a number"))
        case "level":
            return .failure(ControlRejection("level needs a voice's name and a level \(Limits.text(levelRange))"))
        case "chord":
            guard let degree = whole(value, in: chordDegrees) else {
                return .failure(ControlRejection("chord \(value.map(Format.plain) ?? "(none)") is not accepted; expected a scale degree \(Limits.text(chordDegrees))"))
            }
            return .success(.chord(degree))
        case "balls":
            guard let count = whole(value, in: ballsRange) else {
                return .failure(ControlRejection("balls \(value.map(Format.plain) ?? "(none)") is not accepted; expected a whole number of piano balls \(Limits.text(ballsRange)) (at most the session's)"))
            }
            return .success(.balls(count))
        default:
            return .failure(ControlRejection("unknown control \(name); accepted: gravity, speed, kick, drop, tempo, key, level, balls, chord"))
        }
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
    public static let ballsRange = Preset.Scene.ballsRange

    /// The degrees a `chord` control accepts.
    public static let chordDegrees = 1...7

    /// Channel volumes a `level` control accepts (MIDI CC7).
    public static let levelRange = 0...127

    /// A voice's level: `value` a whole number in `levelRange`. Whether the session has a voice
    /// of that name is checked apart (`SessionPlan.rejection(of:)`).
    public static func level(voice: String, value: Double?) -> Result<Control, ControlRejection> {
        guard !voice.isEmpty else { return .failure(ControlRejection("level needs a voice's name (bass, keys, …)")) }
        guard let level = whole(value, in: levelRange) else {
            return .failure(ControlRejection("level \(value.map(Format.plain) ?? "(none)") is not accepted; expected a whole number \(Limits.text(levelRange)) (MIDI CC7)"))
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
            return .failure(ControlRejection("\"\(Quote.text(tonic))\" is not a tonic; accepted: \(Settings.acceptedTonics)"))
        }
        guard let scale = Scale.named(mode) else {
            return .failure(ControlRejection("\"\(Quote.text(mode))\" is not a known mode\(Suggestion.didYouMean(mode, in: Settings.modeNames)); accepted: \(Settings.acceptedModes)"))
        }
        return .success(.key(Key(spelledTonic: spelled, scale: scale)))
    }
}

/// Why a control was refused: a sentence for the log.
public struct ControlRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong and what is accepted.
    public var description: String
    /// Creates a rejection.
    public init(_ description: String) { self.description = description }
}

/// A control and the step at whose start it takes effect.
public struct TimedControl: Sendable, Equatable {
    /// The step (0-based): step n runs from n·dt to (n+1)·dt.
    public var step: Int64
    /// The change.
    public var control: Control

    /// Creates a timed control.
    public init(step: Int64, control: Control) {
        self.step = step
        self.control = control
    }
}

/// Where live controls come from. The simulator polls it at the start of every step.
///
/// `poll` runs on the simulation thread once per step: it must not block and should not
/// allocate (append into the reused array it is given).
public protocol ControlSource: AnyObject {
    /// Appends the controls that take effect at the start of `step`. Returns false to end the
    /// session now (cleanly: every file is completed), e.g. when a live output has died.
    func poll(step: Int64, into controls: inout [Control]) -> Bool
}

/// Replays recorded controls at their steps (`clumsy replay`).
public final class ReplayControls: ControlSource {
    private let controls: [TimedControl]
    private var next = 0

    /// Plays `controls` (sorted by step here, stably).
    public init(_ controls: [TimedControl]) {
        self.controls = controls.enumerated().sorted { a, b in
            a.element.step != b.element.step ? a.element.step < b.element.step : a.offset < b.offset
        }.map(\.element)
    }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        while next < self.controls.count, self.controls[next].step <= step {
            controls.append(self.controls[next].control)
            next += 1
        }
        return true
    }
}

/// Several control sources polled in order; the session ends when any asks to.
public final class ControlSources: ControlSource {
    private let sources: [ControlSource]

    /// Polls `sources` in this order each step.
    public init(_ sources: [ControlSource]) { self.sources = sources }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        var keepGoing = true
        for source in sources where !source.poll(step: step, into: &controls) { keepGoing = false }
        return keepGoing
    }
}
