// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import FileOutput
import Performance
import Text
import Theory
import Vocabulary

/// One line of an event log, written and read through this one type (the writer below,
/// `roll`, `replay` and the tests all use it).
///
/// A line is one JSON object. Every line has `t` (seconds, 6 decimals) and `kind`:
/// - `bass`, `key`, `drum`, `second` (a derived voice's note): `voice` (the voice's name in
///   lower case), `ball`, `hit` (the physical hit, never after `t`), `speed` (m/s, 4 decimals),
///   `note`, `velocity`, `degree`, plus `key` and `tone` for key hits, `leading` for a bass
///   leading note and `source` (`wall`, `floor`, `stomp`, `metronome`) for drums;
/// - `chord`: the harmony changes (from `t` on): `degree`, `name` ("E7", as the text view
///   prints it), `numeral`, `root`, `intervals`, and the key's `tonic` and `mode`;
/// - `escape`, `kick`, `drop`: `ball`;
/// - `session` (first line of a live session's log): `format`, `clumsy`, `preset`, `seed`,
///   `timestep`, `plan`, `arguments` (see `ReplayRecord`);
/// - `control`: `step`, `control` and its `value`, or for a key change `tonic` and `mode`;
/// - `end` (last line of a live log): `step`.
/// Note-offs and controllers are not logged.
public struct EventLogRecord: Sendable, Equatable {
    /// The formats this clumsy reads: 1 (live logs before the `format` field and the chord
    /// lines) and 2. A live log's session line names its format; a newer one is refused (65).
    public static let formats = [1, 2]
    /// The format this clumsy writes.
    public static let format = 2

    /// Seconds from the session's start: when the note sounds or the chord takes over (6 decimals).
    public var t: Double
    /// What the line is: `bass`, `key`, `drum`, `second`, `chord`, `escape`, `kick`, `drop`, `session`, `control`, `end`.
    public var kind: String
    /// Session lines: the log's format (`EventLogRecord.format`; absent means 1).
    public var format: Int?
    /// Session lines: the version of clumsy that wrote the log.
    public var clumsy: String?
    /// Session lines: the preset's name.
    public var preset: String?
    /// Session lines: the seed, as a decimal string (a UInt64 does not fit a JSON number exactly).
    public var seed: String?
    /// Session lines: seconds per step.
    public var timestep: Double?
    /// Session lines: the plan's digest (`PlanDigest`).
    public var plan: String?
    /// Session lines: the `clumsy run` arguments that shape the notes.
    public var arguments: [String]?
    /// Notes: the voice's name in lower case (its MIDI track name).
    public var voice: String?
    /// Notes and the rules' events: the ball (0 the bass ball, 1… the piano balls; -1 none).
    public var ball: Int?
    /// Notes: seconds of the physical hit, never after `t`.
    public var hit: Double?
    /// Notes: impact speed along the contact normal, m/s.
    public var speed: Double?
    /// Notes: MIDI note 0…127.
    public var note: Int?
    /// Notes: MIDI velocity 1…127.
    public var velocity: Int?
    /// Notes: the degree 1…7 of the chord playing; chord lines: the degree whose chord takes over.
    public var degree: Int?
    /// Chord lines: the chord symbol as the terminal prints it ("E7", "F♯m7").
    public var name: String?
    /// Chord lines: the chord's numeral in the key ("II", "vi").
    public var numeral: String?
    /// Chord lines: the root, spelled in the key, ASCII ("F#").
    public var root: String?
    /// Chord lines: semitones above the root of each chord tone (root 0 first).
    public var intervals: [Int]?
    /// Key notes: the key number 1…K, left to right.
    public var key: Int?
    /// Key notes: the chord tone 1…5 the key plays (0 a melody note).
    public var tone: Int?
    /// Bass notes: true for a leading note (an approach to the next root).
    public var leading: Bool?
    /// Drum notes: what played it (`wall`, `floor`, `stomp`, `metronome`).
    public var source: String?
    /// Control and end lines: the step it took effect at, or the last step.
    public var step: Int64?
    /// Control lines: the control's name (`gravity`, `key`, …).
    public var control: String?
    /// Control lines: the control's value (absent for a key change, a kick or a drop).
    public var value: Double?
    /// Key changes and chord lines: the key's tonic, ASCII ("Eb").
    public var tonic: String?
    /// Key changes and chord lines: the key's scale ("dorian").
    public var mode: String?
    /// False for a line read without a `t` (its `t` is then 0).
    public var hasTime = true

    /// A record of `kind` at `t`, every other field absent.
    public init(t: Double, kind: String) {
        self.t = t
        self.kind = kind
    }

    /// The record of one event of a session with `voices`, or nil for events not logged
    /// (note-offs, controllers).
    public init?(_ event: SessionEvent, voices: VoiceTable) {
        switch event {
        case .note(let note):
            guard note.kind == .on else { return nil }
            let voice = voices[note.voice]
            let kinds: [Voice.Source: String] = [.bassBall: "bass", .pianoBalls: "key", .percussion: "drum", .derived: "second", .melody: "melody"]
            self.init(t: note.time, kind: kinds[voice.source]!)
            (self.voice, ball, hit, speed) = (voice.logName, note.ball, note.hit, note.speed)
            (self.note, velocity, degree) = (note.note, note.velocity, note.degree)
            switch note.cause {
            case .keyHit(let key, let tone): (self.key, self.tone) = (key, tone)
            case .melodyStep(let key, _): (self.key, tone) = (key, 0)
            case .leadingNote: leading = true
            case .drum(let source): self.source = source.rawValue
            case .opening, .ending, .bassHit, .derived, .none: break
            }
        case .chord(let chord):
            self.init(t: chord.time, kind: "chord")
            (degree, name, numeral) = (chord.degree, chord.name, chord.numeral)
            root = chord.key.spell(chord.chord.root).name(.ascii)
            intervals = chord.chord.intervals
            (tonic, mode) = (chord.key.spelledTonic.name(.ascii), chord.key.scale.name)
        case .escape(let time, let ball):
            self.init(t: time, kind: "escape")
            self.ball = ball
        case .kick(let time):
            self.init(t: time, kind: "kick")
            ball = 0
        case .drop(let time, let ball):
            self.init(t: time, kind: "drop")
            self.ball = ball
        case .live(let time, let step, let control):
            self.init(t: time, kind: "control")
            (self.step, self.control) = (step, control.name)
            if case .key(let key) = control {
                (tonic, mode) = (key.spelledTonic.name(.ascii), key.scale.name)
            } else {
                value = control.value
            }
            if case .level(let name, _) = control { voice = name }
        case .control:
            return nil
        }
    }

    /// The line (no newline): the fields present, in one fixed order.
    public var line: String {
        var text = "{\"t\":\(Format.fixed(t, decimals: 6)),\"kind\":\(Format.jsonString(kind))"
        func add(_ field: String, _ value: String?) { if let value { text += ",\"\(field)\":\(value)" } }
        let string = { (value: String?) in value.map(Format.jsonString) }
        add("format", format.map(String.init))
        add("clumsy", string(clumsy))
        add("preset", string(preset))
        add("seed", string(seed))
        add("timestep", timestep.map(Format.plain))
        add("plan", string(plan))
        add("arguments", arguments.map { "[" + $0.map(Format.jsonString).joined(separator: ",") + "]" })
        add("voice", string(voice))
        add("ball", ball.map(String.init))
        add("hit", hit.map { Format.fixed($0, decimals: 6) })
        add("speed", speed.map { Format.fixed($0, decimals: 4) })
        add("note", note.map(String.init))
        add("velocity", velocity.map(String.init))
        add("degree", degree.map(String.init))
        add("name", string(name))
        add("numeral", string(numeral))
        add("root", string(root))
        add("intervals", intervals.map { "[" + $0.map(String.init).joined(separator: ",") + "]" })
        add("key", key.map(String.init))
        add("tone", tone.map(String.init))
        add("leading", leading.map { $0 ? "true" : "false" })
        add("source", string(source))
        add("step", step.map(String.init))
        add("control", string(control))
        add("value", value.map(Format.plain))
        add("tonic", string(tonic))
        add("mode", string(mode))
        return text + "}"
    }
}

// MARK: Reading

extension EventLogRecord {
    /// Reads one line of the log at `path` (line `number`, for errors). Each known field must
    /// have its type (whole numbers within range for counts, strings, arrays of them); other
    /// fields are ignored. A `session` line of a format this clumsy does not know is refused.
    /// - Throws: `.data` (65) naming the file, the line and the field.
    public init(parsing bytes: [UInt8], path: String, line number: Int) throws(SessionError) {
        let place = "\(Quote.text(path)): line \(number)"
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .data("\(place) is not JSON: \(error.reason)")
        }
        guard case .object(let members) = json else { throw .data("\(place) is not a JSON object") }
        var fields = Fields(members: members, place: place)
        guard let kind = try fields.string("kind") else {
            throw .data("\(place): not an event log of clumsy's: no \"kind\" (a log's lines look like "
                + "{\"t\":0.717,\"kind\":\"key\",\"note\":71,…}; write one with clumsy run --events)")
        }
        self.init(t: try fields.number("t") ?? 0, kind: kind)
        if kind == "session" { try readSession(&fields) }
        voice = try fields.string("voice")
        ball = try fields.whole("ball", Int.self)
        hit = try fields.number("hit")
        speed = try fields.number("speed")
        note = try fields.whole("note", Int.self)
        velocity = try fields.whole("velocity", Int.self)
        degree = try fields.whole("degree", Int.self)
        name = try fields.string("name")
        numeral = try fields.string("numeral")
        root = try fields.string("root")
        intervals = try fields.wholes("intervals")
        key = try fields.whole("key", Int.self)
        tone = try fields.whole("tone", Int.self)
        leading = try fields.bool("leading")
        source = try fields.string("source")
        step = try fields.whole("step", Int64.self)
        control = try fields.string("control")
        value = try fields.number("value")
        tonic = try fields.string("tonic")
        mode = try fields.string("mode")
        hasTime = fields.has("t")
    }

    private mutating func readSession(_ fields: inout Fields) throws(SessionError) {
        format = try fields.whole("format", Int.self)
        let version = format ?? 1
        guard Self.formats.contains(version) else {
            throw .data("\(fields.place): the event log is of format \(version); this clumsy reads formats "
                + "\(Self.formats.map(String.init).joined(separator: " and ")): record it again or use a newer clumsy")
        }
        clumsy = try fields.string("clumsy")
        preset = try fields.string("preset")
        seed = try fields.string("seed")
        timestep = try fields.number("timestep")
        plan = try fields.string("plan")
        arguments = try fields.strings("arguments")
    }

    /// A line's members, read by name with their types checked.
    private struct Fields {
        let members: [(key: String, value: JSONValue)]
        let place: String

        func has(_ name: String) -> Bool { members.contains { $0.key == name } }
        func member(_ name: String) -> JSONValue? { members.first { $0.key == name }?.value }
        func bad(_ name: String, _ accepted: String) -> SessionError { .data("\(place): \"\(name)\" must be \(accepted)") }

        func number(_ name: String) throws(SessionError) -> Double? {
            switch member(name) {
            case nil: return nil
            case .number(let x, _)?: return x
            default: throw bad(name, "a number")
            }
        }
        func whole<N: FixedWidthInteger>(_ name: String, _ type: N.Type) throws(SessionError) -> N? {
            guard let x = try number(name) else { return nil }
            guard x == x.rounded(), let n = N(exactly: x), abs(x) < 9e15 else { throw bad(name, "a whole number") }
            return n
        }
        func string(_ name: String) throws(SessionError) -> String? {
            switch member(name) {
            case nil: return nil
            case .string(let s)?: return s
            default: throw bad(name, "a string")
            }
        }
        func bool(_ name: String) throws(SessionError) -> Bool? {
            switch member(name) {
            case nil: return nil
            case .bool(let b)?: return b
            default: throw bad(name, "true or false")
            }
        }
        func strings(_ name: String) throws(SessionError) -> [String]? {
            guard let value = member(name) else { return nil }
            guard case .array(let items) = value else { throw bad(name, "an array of strings") }
            var out: [String] = []
            for item in items {
                guard case .string(let s) = item else { throw bad(name, "an array of strings") }
                out.append(s)
            }
            return out
        }
        func wholes(_ name: String) throws(SessionError) -> [Int]? {
            guard let value = member(name) else { return nil }
            guard case .array(let items) = value else { throw bad(name, "an array of whole numbers") }
            var out: [Int] = []
            for item in items {
                guard case .number(let x, _) = item, x == x.rounded(), abs(x) < 9e15 else { throw bad(name, "an array of whole numbers") }
                out.append(Int(x))
            }
            return out
        }
    }
}

// MARK: Writing

/// Writes the session's events as an event log (JSON Lines, `EventLogRecord`), atomically.
/// A live session's log opens with a `session` line (`ReplayRecord`) and closes with an `end`
/// line giving the last step.
///
/// A live session's log reaches its temporary as the set goes: the session line at once, then
/// each step's lines as the step ends (one `write(2)` per step that has any), so that a crash
/// or SIGKILL leaves every event played up to then, for `clumsy recover`. Its temporary is one
/// that no other process removes (`AtomicFile(path:kept:)`). An offline log is buffered.
public final class EventLogWriter: SessionSink {
    private let file: AtomicFile
    private let voices: VoiceTable
    private let timestep: Double?
    private let isLive: Bool

    /// Opens `path` (a temporary is created now, so a bad path fails before the session runs).
    /// With a `replay` record (live sessions) the log opens with a `session` line saying how to
    /// re-run it and closes with an `end` line giving the last step (`timestep` seconds each).
    /// `isLive`: the lines reach the file step by step, and the temporary outlives a crash.
    public init(path: String, voices: VoiceTable, replay: ReplayRecord? = nil, isLive: Bool = false) throws(SessionError) {
        do {
            file = try AtomicFile(path: path, kept: isLive)
        } catch {
            throw .cannotCreate("cannot write event log: \(error)")
        }
        self.voices = voices
        self.isLive = isLive
        timestep = replay?.timestep
        if let replay {
            try write(replay.line)
            if isLive { try flush() }
        }
    }

    /// The JSON line (without newline) for one event, or nil for events not logged (note-offs, controllers).
    public func line(for event: SessionEvent) -> String? { EventLogRecord(event, voices: voices)?.line }

    private func write(_ line: String) throws(SessionError) {
        do {
            try file.write(line + "\n")
        } catch {
            throw .io("cannot write event log: \(error)")
        }
    }

    private func flush() throws(SessionError) {
        do {
            try file.flush()
        } catch {
            throw .io("cannot write event log: \(error)")
        }
    }

    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        var wrote = false
        for event in events {
            if let text = line(for: event) {
                try write(text)
                wrote = true
            }
        }
        if wrote && isLive { try flush() }
    }

    public func finish(at time: Double) throws(SessionError) {
        if let timestep {
            var end = EventLogRecord(t: time, kind: "end")
            end.step = Int64((time / timestep).rounded())
            try write(end.line)
        }
        do {
            try file.commit()
        } catch {
            throw .io("cannot write event log: \(error)")
        }
    }

    public func abandon() { file.abandon() }
}
