// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Text
import Theory
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// A session's description as written in a preset file, every optional field resolved to its default.
///
/// The schema (fields, units, defaults, ranges) is the settings table, `Settings.all`, and
/// `Presets/README.md` shows it. Decoding walks the table: it rejects unknown fields, wrong
/// types and values out of range with the file and JSON field path.
public struct Preset: Sendable, Equatable {
    /// How the seven bouncers are arranged in the bass area (the preset's `layout` field; the
    /// geometry built from it is `Layout`, in Engine).
    public enum Arrangement: String, Sendable, CaseIterable {
        /// The original iPad app's: I in the middle, ii/iii top corners, IV/V edges, vi/vii° bottom corners.
        case original
        /// The seven bouncers on a ring around the middle of the bass area, I at the top, clockwise.
        case ring
        /// Seven bouncers at seeded random places in the bass area (no overlaps).
        case scatter
        /// The seven bouncers on a ring in circle-of-fifths order (I IV vii iii vi ii V clockwise
        /// from the top): neighbours are a fifth apart.
        case fifths
    }

    /// A velocity curve as written: speeds giving velocity 1 and 127, and the exponent.
    public struct Curve: Sendable, Equatable {
        /// Speed giving velocity 1.
        public var quiet: Double
        /// Speed giving velocity 127.
        public var loud: Double
        /// Curve exponent (1 = linear).
        public var exponent: Double

        /// The curve as the performer uses it (speeds taken as written).
        public var curve: VelocityCurve { VelocityCurve(quietSpeed: quiet, loudSpeed: loud, exponent: exponent) }
    }

    /// The bass voice and the bass area.
    public struct Bass: Sendable, Equatable {
        /// Degrees 1…7 whose bouncers are switched on (at least one).
        public var bouncers: [Int]
        /// Bass ball radius, metres.
        public var radius: Double
        /// Bouncer radius, metres.
        public var bouncerRadius: Double
        /// Lowest bass note; degree roots are folded into the octave above it.
        public var register: Pitch
        /// Bass tone name (see `clumsy tones`).
        public var tone: String
        /// Bass note length, seconds.
        public var noteLength: Double
        /// Velocity curve; speeds are fractions of the bass ball's speed (0…1 = glancing…head-on).
        public var velocity: Curve
        /// Seconds without a bouncer hit (or caught in a two-bouncer loop) before the bass ball is kicked.
        public var kickAfter: Double
        /// Pan −1 (left) … 1 (right).
        public var pan = 0.0
        /// Channel volume, MIDI CC7 0…127.
        public var level = 72
        /// The leading note before a new root.
        public var approach = Approach.off
        /// The tonic bouncer's radius is `bouncerRadius` × this (1 = all alike).
        public var home = 1.0
        /// Chords given to bouncers, by degree 1…7 (the others play the scale's seventh chord).
        public var chords: [Int: ChordSpecification] = [:]
    }

    /// The keys voice.
    public struct Keys: Sendable, Equatable {
        /// Chord tone (1 root, 2 3rd, 3 5th, 4 7th, 5 9th) of each key, left to right; empty =
        /// one key per tone of the largest chord (`Configuration` resolves it).
        public var tones: [Int]
        /// What a strike plays: its chord tone, or the next note of a melody.
        public var mode = KeysMode.chord
        /// How the chord's tones are placed.
        public var voicing: Voicing
        /// Base pitch of the voicing.
        public var register: Pitch
        /// Keys tone name (see `clumsy tones`).
        public var tone: String
        /// Note length, seconds.
        public var noteLength: Double
        /// Velocity curve, m/s.
        public var velocity: Curve
        /// Key hits slower than this are not played (resting contacts), m/s.
        public var minimumSpeed: Double
        /// Pan: by each key's position, or fixed.
        public var pan = Pan.position
        /// Channel volume, MIDI CC7 0…127.
        public var level = 100
        /// Whether the dribble gate is on.
        public var isDribbleOn = false
        /// The dribble gate's values (kept while off).
        public var dribble = DribbleGate(window: 0.25, velocity: 40)
    }

    /// Musical time besides the tempo and meter: the grid, its feel, and chord changes.
    public struct Time: Sendable, Equatable {
        /// Quantisation grid.
        public var quantize = Grid.off
        /// 1 = onto the grid line, 0 = where struck.
        public var strength = 1.0
        /// Delay of every second grid line, fraction of a grid step.
        public var swing = 0.0
        /// Accent on beat 1 (quantised notes).
        public var downbeatAccent = 12
        /// Accent on the meter's other strong beats (quantised notes).
        public var strongAccent = 6
        /// Velocities are mapped onto velocityFloor…127 (0 = unchanged).
        public var velocityFloor = 0
        /// How far each phrase swells and falls (0 = not at all).
        public var swell = 0.0
        /// When a bass hit's chord takes over.
        public var chordChange = ChordChange.hit
        /// End ringing key notes that are not tones of the new chord at the change.
        public var endNonChordTones = false
    }

    /// The second voice: each key note doubled a diatonic third or sixth away.
    public struct Second: Sendable, Equatable {
        /// Whether there is a second voice.
        public var isOn = false
        /// Diatonic interval in scale steps' names: ±3 (a third) or ±6 (a sixth), negative = below.
        public var interval = -3
        /// Tone name (keys catalog).
        public var tone = "vibraphone"
        /// Channel volume, CC7.
        public var level = 80
    }

    /// The melody voice: a tune on top, moved by the piano balls' strikes.
    public struct Melody: Sendable, Equatable {
        /// Whether there is a melody voice.
        public var isOn = false
        /// Tone name (keys catalog).
        public var tone = "flute"
        /// Lowest note of its register (which spans an octave and a sixth).
        public var register = Pitch(midi: 72)
        /// Longest note, seconds (a note ends earlier at the melody's next).
        public var noteLength = 1.5
        /// Shortest time between two melody notes, quarter notes.
        public var shortest = 0.5
        /// Bars in a phrase without a form (with one, the form's `bars`).
        public var phrase = 4
        /// How the line moves.
        public var shape = MelodyShape.places
        /// Channel volume, CC7.
        public var level = 100
        /// Pan −1…1.
        public var pan = 0.0
    }

    /// The percussion voice (GM drums on channel 10).
    public struct Percussion: Sendable, Equatable {
        /// Whether there is a percussion voice.
        public var isOn = false
        /// Drum for the bass ball's wall hits, or nil.
        public var bassWalls: Drum?
        /// Drum for piano balls against the side walls, or nil.
        public var walls: Drum?
        /// Drum for piano balls on the floor between the keys, or nil.
        public var floor: Drum?
        /// Beats (1-based) of the stomp.
        public var stomp: [Int] = []
        /// The stomp's drum.
        public var stompDrum = Drum.named("kick")!
        /// The stomp's velocity.
        public var stompVelocity = 90
        /// A click on every beat.
        public var metronome = false
        /// Channel volume, CC7.
        public var level = 100
        /// Pan −1…1.
        public var pan = 0.0
    }

    /// The piano balls.
    public struct Piano: Sendable, Equatable {
        /// Number of balls.
        public var count: Int
        /// Radius, metres.
        public var radius: Double
        /// Restitution against keys, walls and each other.
        public var restitution: Double
        /// Friction coefficient.
        public var friction: Double
        /// Seconds without a key hit before a ball is dropped again from the top.
        public var redropAfter: Double
        /// Seconds a ball may lie still (slower than 0.05 m/s) before it is dropped again.
        public var restAfter: Double
        /// Whether the balls collide with each other (false: a rain that never piles up).
        public var collide: Bool
        /// Whether a ball whose key contact is too soft to be a hit is taken up and dropped again at once.
        public var takeUp = false
    }

    /// Sound settings: SoundFont and effects. Each effect keeps its values while switched off,
    /// so a flag that switches it on (`--delay 0.5`) finds the preset's other values.
    public struct Sound: Sendable, Equatable {
        /// SoundFont path, or nil to search the standard places.
        public var soundFont: String?
        /// Master gain of the synthesizer.
        public var gain = 0.0
        /// dB added to the synthesizer's gain when playing live (no mastering pass can look
        /// ahead there); measured for each bundled preset.
        public var liveGain = 0.0
        /// Integrated loudness of an audio render, LUFS, or nil to write the synthesizers' level.
        public var loudness: Double? = -16
        /// True-peak ceiling of an audio render, dBTP (with the loudness on).
        public var truePeak = -1.0
        /// Sample format of WAV and FLAC renders.
        public var bitDepth = BitDepth.standard
        /// Whether the low-pass filter is on.
        public var isFilterOn = false
        /// The filter's values (kept while off).
        public var filterValues = LowPassFilter(cutoff: 0, resonance: 0)
        /// Whether the delay is on.
        public var isDelayOn = false
        /// The delay's values (kept while off).
        public var delayValues = Delay(time: 0, feedback: 0, mix: 0)
        /// The delay time as a note value, a fraction of a whole note (3/16: a dotted eighth),
        /// or nil: `delayValues.time` in seconds. Resolved at the session's tempo.
        public var delayNote: Double?
        /// Whether the reverb is on.
        public var isReverbOn = false
        /// The reverb's values (kept while off).
        public var reverbValues = Reverb(level: 0, roomSize: 0)

        /// The low-pass filter, or nil when off.
        public var filter: LowPassFilter? {
            get { isFilterOn ? filterValues : nil }
            set {
                isFilterOn = newValue != nil
                if let newValue { filterValues = newValue }
            }
        }

        /// The delay (its time in seconds), or nil when off.
        public var delay: Delay? {
            get { isDelayOn ? delayValues : nil }
            set {
                isDelayOn = newValue != nil
                if let newValue { delayValues = newValue }
            }
        }

        /// The reverb, or nil when off.
        public var reverb: Reverb? {
            get { isReverbOn ? reverbValues : nil }
            set {
                isReverbOn = newValue != nil
                if let newValue { reverbValues = newValue }
            }
        }
    }

    /// Short name (the file's stem for files).
    public var name: String
    /// The file this preset was read from (used in error messages).
    public var source: String
    /// One line saying what the preset sounds like.
    public var description: String
    /// Seed of the session's random choices.
    public var seed: UInt64
    /// Tempo, quarter notes per minute (the MIDI file's and the grid's).
    public var tempo: Double
    /// Time signature.
    public var meter = Meter("4/4")!
    /// Grid, feel and chord changes.
    public var time = Time()
    /// The percussion voice.
    public var percussion = Percussion()
    /// The second voice.
    public var second = Second()
    /// The melody voice.
    public var melody = Melody()
    /// The derived voices of the `voices` list, in order (after the second voice).
    public var voices: [DerivedVoice] = []
    /// Phrases and sections that return.
    public var form = Form()
    /// Live controls at bar lines (`Preset+Scenes.swift`).
    public var scenes: [Scene] = []
    /// Fixed physics timestep, seconds.
    public var timestep: Double
    /// The key's tonic as written (`key.tonic`): kept apart from the key so that a scale read or
    /// flagged after it still sees the written spelling (D♯ minor stays D♯, not E♭).
    public var keyTonic: SpelledPitchClass
    /// The key's scale (`key.scale`).
    public var keyScale: Scale
    /// Key: the tonic as written (respelled only where its signature would need more than seven
    /// accidentals) and the scale.
    public var key: Key {
        get { Key(spelledTonic: keyTonic, scale: keyScale) }
        set {
            keyTonic = newValue.spelledTonic
            keyScale = newValue.scale
        }
    }
    /// Bouncer arrangement.
    public var layout: Arrangement
    /// Gravity on the piano balls, m/s².
    public var gravity: Double
    /// Bass ball speed, m/s.
    public var speed: Double
    /// Bass settings.
    public var bass: Bass
    /// Keys settings.
    public var keys: Keys
    /// Piano ball settings.
    public var piano: Piano
    /// Sound settings.
    public var sound: Sound

    /// Metres per point of the original app's 1024 × 768 scene (SpriteKit's 150 points per metre).
    public static let metresPerPoint = 1.0 / 150

    // MARK: Decoding

    /// Reads and decodes a preset file; `name` defaults to the file's stem.
    public static func load(path: String) throws(SessionError) -> Preset {
        let bytes = try readFile(path)
        var stem = path.split(separator: "/").last.map(String.init) ?? path
        if stem.hasSuffix(".json") { stem.removeLast(5) }
        var preset = try decode(bytes, file: path, defaultName: stem)
        // A relative SoundFont path is relative to the preset file's folder, wherever clumsy runs.
        if let soundFont = preset.sound.soundFont, !soundFont.hasPrefix("/"), let slash = path.lastIndex(of: "/") {
            preset.sound.soundFont = String(path[...slash]) + soundFont
        }
        return preset
    }

    /// Reads a whole file, refusing anything larger than `Limits.presetFileSize`.
    public static func readFile(_ path: String) throws(SessionError) -> [UInt8] {
        let fd = try InputFile.open(path, what: "preset file")
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .noInput("\(path): cannot read preset file: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > Limits.presetFileSize {
                throw .preset(file: path, field: "", message: "file is larger than \(Limits.presetFileSize) bytes; a preset is a small JSON object")
            }
        }
        return bytes
    }

    /// Every setting at its default (`{}` as a preset), named `name`.
    public static func defaults(name: String = "", source: String = "") -> Preset {
        var preset = Preset(
            name: name, source: source, description: "", seed: 0, tempo: 0, timestep: 0,
            keyTonic: SpelledPitchClass(letter: 0, accidental: 0), keyScale: .major, layout: .original, gravity: 0, speed: 0,
            bass: Bass(bouncers: [], radius: 0, bouncerRadius: 0, register: Pitch(midi: 0), tone: "", noteLength: 0,
                       velocity: Curve(quiet: 0, loud: 0, exponent: 0), kickAfter: 0),
            keys: Keys(tones: [], voicing: .folded, register: Pitch(midi: 0), tone: "", noteLength: 0,
                       velocity: Curve(quiet: 0, loud: 0, exponent: 0), minimumSpeed: 0),
            piano: Piano(count: 0, radius: 0, restitution: 0, friction: 0, redropAfter: 0, restAfter: 0, collide: false),
            sound: Sound())
        for setting in Settings.all { setting.setDefault(&preset) }
        preset.name = name
        return preset
    }

    /// Every problem of a preset file, each naming the file and the field path (empty: valid).
    /// Reading goes on past a bad field; rules that tie fields together are checked when every
    /// field was readable.
    public static func problems(path: String) throws(SessionError) -> [SessionError] {
        let bytes = try readFile(path)
        let problems = FieldReader.Problems()
        do {
            _ = try decode(bytes, file: path, defaultName: "", collecting: problems)
        } catch {
            problems.list.append(error)
        }
        return problems.list
    }

    /// Decodes preset JSON; every problem names `file` and the field path.
    public static func decode(_ bytes: [UInt8], file: String, defaultName: String) throws(SessionError) -> Preset {
        try decode(bytes, file: file, defaultName: defaultName, collecting: nil)
    }

    private static func decode(_ bytes: [UInt8], file: String, defaultName: String, collecting: FieldReader.Problems?) throws(SessionError) -> Preset {
        guard bytes.count <= Limits.presetFileSize else {
            throw .preset(file: file, field: "", message: "file is larger than \(Limits.presetFileSize) bytes; a preset is a small JSON object")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .preset(file: file, field: "", message: "not valid JSON: \(error)")
        }
        var preset = defaults(name: defaultName, source: file)
        let r = FieldReader(file: file, collecting: collecting)
        try readObject(root, at: "", into: &preset, r)
        if collecting?.list.isEmpty ?? true { try preset.checkRules(r) }
        return preset
    }

    /// Reads the object at `path` field by field through the settings table.
    static func readObject(_ value: JSONValue, at path: String, into preset: inout Preset, _ r: FieldReader) throws(SessionError) {
        for (key, member) in try r.object(value, at: path, allowed: Settings.children(of: path)) {
            let childPath = FieldReader.join(path, key)
            guard let setting = Settings.setting(at: childPath) else {
                try r.attempt { () throws(SessionError) in try readObject(member, at: childPath, into: &preset, r) }   // a plain group such as `bass`
                continue
            }
            guard setting.isSwitch else {
                try r.attempt { () throws(SessionError) in try setting.read(member, &preset, r) }
                continue
            }
            switch member {
            case .null, .bool(false): setting.switchTo(&preset, false)
            default:
                setting.switchTo(&preset, true)
                try r.attempt { () throws(SessionError) in try readObject(member, at: childPath, into: &preset, r) }
            }
        }
    }

    /// This preset with the flags of `clumsy run` applied: `flags` maps a flag name (without
    /// dashes) to its text. Each value is checked against its setting's range here, once;
    /// `dry` switches every effect block (`sound.filter`, `sound.delay`, `sound.reverb`) off. Errors are usage errors naming the flag.
    public func applying(flags: [String: String], dry: Bool = false) throws(SessionError) -> Preset {
        var preset = self
        if dry {
            let conflicting = Settings.flagged.filter { flags[$0.flag!] != nil && Settings.block(of: $0).map(Self.isEffect) == true }
            guard conflicting.isEmpty else {
                throw .usage("--dry switches every effect off; it cannot be combined with \(conflicting.map(\.flagName).joined(separator: ", "))")
            }
        }
        for name in flags.keys where Settings.setting(flag: name) == nil {
            throw .software("--\(name) is not a flag of the settings table")
        }
        for setting in Settings.flagged {
            guard let text = flags[setting.flag!] else { continue }
            if let block = Settings.block(of: setting) {
                if setting.flagTakesOff && text.lowercased() == "off" {
                    block.switchTo(&preset, false)
                    continue
                }
                if setting.flagTakesOff {
                    block.switchTo(&preset, true)
                } else if !block.isOn(preset) {
                    let leader = Settings.all.first { $0.flagTakesOff && Settings.block(of: $0)?.path == block.path }
                    let name = block.path.split(separator: ".").last.map(String.init) ?? block.path
                    guard let leader else {
                        throw .usage("\(setting.flagName) needs the \(name) on, and this preset has it off: add --set \(block.path)=true")
                    }
                    throw .usage("\(setting.flagName) needs the \(name) on: add \(leader.flagName) <\(leader.valueName.prefix { $0 != "|" })>")
                }
            }
            try setting.parse(text, &preset)
        }
        if dry {
            for block in Settings.all where block.isSwitch && Self.isEffect(block) { block.switchTo(&preset, false) }
        }
        return preset
    }

    /// True for the effect blocks `--dry` switches off (filter, delay, reverb: the `sound.`
    /// blocks); the second voice, the drums and the dribble gate are parts of the music, not effects.
    static func isEffect(_ block: Setting) -> Bool { block.path.hasPrefix("sound.") }
}
