import Theory
import Performance
#if canImport(Glibc)
import Glibc
#endif

/// A session's description as written in a preset file, every optional field resolved to its default.
///
/// The schema (fields, units, defaults, ranges) is documented in `Presets/README.md`;
/// `Limits` holds the ranges. Decoding rejects unknown fields, wrong types and values out
/// of range with the file and JSON field path.
public struct Preset: Sendable, Equatable {
    /// How the seven bouncers are arranged in the bass area.
    public enum Layout: String, Sendable, CaseIterable {
        /// The original iPad app's: I in the middle, ii/iii top corners, IV/V edges, vi/vii° bottom corners.
        case original
        /// The seven bouncers on a ring around the middle of the bass area, I at the top, clockwise.
        case ring
        /// Seven bouncers at seeded random places in the bass area (no overlaps).
        case scatter
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
    }

    /// The keys voice.
    public struct Keys: Sendable, Equatable {
        /// Chord tone (1 root, 2 3rd, 3 5th, 4 7th) of each key, left to right.
        public var tones: [Int]
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
    }

    /// Sound settings: SoundFont and effects (nil = off).
    public struct Sound: Sendable, Equatable {
        /// SoundFont path, or nil to search the standard places.
        public var soundFont: String?
        /// Low-pass cutoff (Hz) and resonance (dB), or nil when off.
        public var filter: (cutoff: Double, resonance: Double)?
        /// Delay time (s), feedback and wet mix, or nil when off.
        public var delay: (time: Double, feedback: Double, mix: Double)?
        /// Reverb level and room size, or nil when off.
        public var reverb: (level: Double, room: Double)?

        public static func == (a: Sound, b: Sound) -> Bool {
            a.soundFont == b.soundFont && a.filter?.cutoff == b.filter?.cutoff && a.filter?.resonance == b.filter?.resonance
                && a.delay?.time == b.delay?.time && a.delay?.feedback == b.delay?.feedback && a.delay?.mix == b.delay?.mix
                && a.reverb?.level == b.reverb?.level && a.reverb?.room == b.reverb?.room
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
    /// Tempo written into the MIDI file, beats per minute.
    public var tempo: Double
    /// Fixed physics timestep, seconds.
    public var timestep: Double
    /// Key (tonic and scale).
    public var key: Key
    /// Bouncer arrangement.
    public var layout: Layout
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
        return try decode(bytes, file: path, defaultName: stem)
    }

    /// Reads a whole file, refusing anything larger than `Limits.presetFileSize`.
    static func readFile(_ path: String) throws(SessionError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw .noInput("\(path): cannot open preset file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw .noInput("\(path): is a directory, not a preset file")
        }
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

    /// Decodes preset JSON; every problem names `file` and the field path.
    public static func decode(_ bytes: [UInt8], file: String, defaultName: String) throws(SessionError) -> Preset {
        guard bytes.count <= Limits.presetFileSize else {
            throw .preset(file: file, field: "", message: "file is larger than \(Limits.presetFileSize) bytes; a preset is a small JSON object")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .preset(file: file, field: "", message: "not valid JSON: \(error)")
        }
        let r = FieldReader(file: file)
        let top = try r.object(root, at: "", allowed: ["name", "description", "seed", "tempo", "timestep", "key",
                                                       "layout", "gravity", "speed", "bass", "keys", "piano", "sound"])
        let name = try r.string(top, "name", in: "", default: defaultName)!
        let description = try r.string(top, "description", in: "", default: "")!
        let seedNumber = try r.integer(top, "seed", in: "", range: 0...(1 << 53), default: 1)
        let tempo = try r.number(top, "tempo", in: "", range: Limits.tempo, unit: "bpm", default: 120)
        let timestep = try r.number(top, "timestep", in: "", range: Limits.timestep, unit: "s", default: 1.0 / 240)
        let key = try decodeKey(top["key"], r)
        let layout = Layout(rawValue: try r.choice(top, "layout", in: "", choices: Layout.allCases.map(\.rawValue), default: "original"))!
        let gravity = try r.number(top, "gravity", in: "", range: Limits.gravity, unit: "m/s²", default: 9.81)
        let speed = try r.number(top, "speed", in: "", range: Limits.speed, unit: "m/s", default: 275 * metresPerPoint)

        let bass = try decodeBass(top["bass"] ?? .object([]), r)
        let keys = try decodeKeys(top["keys"] ?? .object([]), r)
        let piano = try decodePiano(top["piano"] ?? .object([]), r)
        let sound = try decodeSound(top["sound"] ?? .object([]), r)
        return Preset(name: name, source: file, description: description, seed: UInt64(seedNumber), tempo: tempo, timestep: timestep,
                      key: key, layout: layout, gravity: gravity, speed: speed, bass: bass, keys: keys, piano: piano, sound: sound)
    }

    private static func decodeKey(_ value: JSONValue?, _ r: FieldReader) throws(SessionError) -> Key {
        guard let value else { return Key(tonic: PitchClass(0), scale: .major) }
        let fields = try r.object(value, at: "key", allowed: ["tonic", "scale"])
        let tonicName = try r.string(fields, "tonic", in: "key", default: "C", expected: "a note name such as \"C\", \"F#\" or \"Bb\"")!
        guard let tonic = SpelledPitchClass(name: tonicName) else {
            throw r.fail("key.tonic", "\"\(tonicName)\" is not a note name; expected a letter A–G with optional # or b (\"C\", \"F#\", \"Bb\")")
        }
        let scaleName = try r.string(fields, "scale", in: "key", default: "major", expected: "a scale name")!
        guard let scale = Scale.named(scaleName) else {
            throw r.fail("key.scale", "\"\(scaleName)\" is not a known scale; expected one of: \(Scale.catalogNames.joined(separator: ", "))")
        }
        return Key(spelledTonic: tonic, scale: scale)
    }

    private static func decodePitch(_ fields: [String: JSONValue], _ key: String, in path: String, default fallback: Int,
                                    _ r: FieldReader) throws(SessionError) -> Pitch {
        let range = Limits.register
        let text = try r.string(fields, key, in: path, default: Pitch(midi: fallback).name,
                                expected: "a note name with octave such as \"C3\" (\(Pitch(midi: range.lowerBound).name)…\(Pitch(midi: range.upperBound).name))")!
        guard let pitch = Pitch(name: text), range.contains(pitch.midi) else {
            throw r.fail(FieldReader.join(path, key), "\"\(text)\" is not accepted; expected a note name with octave from \(Pitch(midi: range.lowerBound).name) to \(Pitch(midi: range.upperBound).name), such as \"C3\"")
        }
        return pitch
    }

    private static func decodeCurve(_ value: JSONValue?, at path: String, default fallback: Curve, unit: String,
                                    _ r: FieldReader) throws(SessionError) -> Curve {
        guard let value else { return fallback }
        let fields = try r.object(value, at: path, allowed: ["quiet", "loud", "exponent"])
        let quiet = try r.number(fields, "quiet", in: path, range: Limits.impactSpeed, unit: unit, default: fallback.quiet)
        let loud = try r.number(fields, "loud", in: path, range: Limits.impactSpeed, unit: unit, default: fallback.loud)
        let exponent = try r.number(fields, "exponent", in: path, range: Limits.exponent, unit: "", default: fallback.exponent)
        guard loud > quiet else {
            throw r.fail("\(path).loud", "must be greater than quiet (\(Format.plain(quiet)) \(unit))")
        }
        return Curve(quiet: quiet, loud: loud, exponent: exponent)
    }

    private static func decodeBass(_ value: JSONValue, _ r: FieldReader) throws(SessionError) -> Bass {
        let p = "bass"
        let f = try r.object(value, at: p, allowed: ["bouncers", "radius", "bouncerRadius", "register", "tone",
                                                     "noteLength", "velocity", "kickAfter"])
        let bouncers = try r.integerList(f, "bouncers", in: p, range: 1...7, maximumCount: 7, default: Array(1...7), what: "scale degree")
        let tone = try r.string(f, "tone", in: p, default: "acoustic-bass")!
        guard Tone.bass(named: tone) != nil else {
            throw r.fail("bass.tone", "\"\(tone)\" is not a bass tone; expected one of: \(Tone.bassCatalog.map(\.name).joined(separator: ", "))")
        }
        return Bass(
            bouncers: bouncers,
            radius: try r.number(f, "radius", in: p, range: Limits.bassRadius, unit: "m", default: 33 * metresPerPoint),
            bouncerRadius: try r.number(f, "bouncerRadius", in: p, range: Limits.bouncerRadius, unit: "m", default: 40 * metresPerPoint),
            register: try decodePitch(f, "register", in: p, default: 48, r),
            tone: tone,
            noteLength: try r.number(f, "noteLength", in: p, range: Limits.noteLength, unit: "s", default: 0.9),
            velocity: try decodeCurve(f["velocity"], at: "bass.velocity", default: Curve(quiet: 0, loud: 1, exponent: 0.5), unit: "× speed", r),
            kickAfter: try r.number(f, "kickAfter", in: p, range: Limits.kickAfter, unit: "s", default: 8))
    }

    private static func decodeKeys(_ value: JSONValue, _ r: FieldReader) throws(SessionError) -> Keys {
        let p = "keys"
        let f = try r.object(value, at: p, allowed: ["tones", "voicing", "register", "tone", "noteLength", "velocity", "minimumSpeed"])
        let tone = try r.string(f, "tone", in: p, default: "marimba")!
        guard Tone.keys(named: tone) != nil else {
            throw r.fail("keys.tone", "\"\(tone)\" is not a keys tone; expected one of: \(Tone.keysCatalog.map(\.name).joined(separator: ", "))")
        }
        let voicing = Voicing(rawValue: try r.choice(f, "voicing", in: p, choices: Voicing.allCases.map(\.rawValue), default: "folded"))!
        return Keys(
            tones: try r.integerList(f, "tones", in: p, range: 1...4, maximumCount: 4, default: [1, 2, 3, 4], what: "chord tone"),
            voicing: voicing,
            register: try decodePitch(f, "register", in: p, default: 60, r),
            tone: tone,
            noteLength: try r.number(f, "noteLength", in: p, range: Limits.noteLength, unit: "s", default: 0.6),
            velocity: try decodeCurve(f["velocity"], at: "keys.velocity", default: Curve(quiet: 0.25, loud: 10.5, exponent: 0.7), unit: "m/s", r),
            minimumSpeed: try r.number(f, "minimumSpeed", in: p, range: Limits.impactSpeed, unit: "m/s", default: 0.25))
    }

    private static func decodePiano(_ value: JSONValue, _ r: FieldReader) throws(SessionError) -> Piano {
        let p = "piano"
        let f = try r.object(value, at: p, allowed: ["count", "radius", "restitution", "friction", "redropAfter", "restAfter", "collide"])
        return Piano(
            count: try r.integer(f, "count", in: p, range: Limits.pianoBalls, default: 4),
            radius: try r.number(f, "radius", in: p, range: Limits.pianoRadius, unit: "m", default: 20 * metresPerPoint),
            restitution: try r.number(f, "restitution", in: p, range: Limits.restitution, unit: "", default: 0.98),
            friction: try r.number(f, "friction", in: p, range: Limits.friction, unit: "", default: 0),
            redropAfter: try r.number(f, "redropAfter", in: p, range: Limits.redropAfter, unit: "s", default: 12),
            restAfter: try r.number(f, "restAfter", in: p, range: Limits.restAfter, unit: "s", default: 2),
            collide: try r.boolean(f, "collide", in: p, default: true))
    }

    private static func decodeSound(_ value: JSONValue, _ r: FieldReader) throws(SessionError) -> Sound {
        let p = "sound"
        let f = try r.object(value, at: p, allowed: ["soundFont", "filter", "delay", "reverb"])
        var sound = Sound(soundFont: try r.string(f, "soundFont", in: p, default: nil, expected: "a SoundFont file path"),
                          filter: nil, delay: (0.375, 0.3, 0.2), reverb: (0.25, 0.5))
        let filter = r.optionalBlock(f, "filter")
        if filter.present {
            if let block = filter.value {
                let g = try r.object(block, at: "sound.filter", allowed: ["cutoff", "resonance"])
                sound.filter = (try r.number(g, "cutoff", in: "sound.filter", range: Limits.cutoff, unit: "Hz", default: 1500),
                                try r.number(g, "resonance", in: "sound.filter", range: Limits.resonance, unit: "dB", default: 0))
            } else { sound.filter = nil }
        }
        let delay = r.optionalBlock(f, "delay")
        if delay.present {
            if let block = delay.value {
                let g = try r.object(block, at: "sound.delay", allowed: ["time", "feedback", "mix"])
                sound.delay = (try r.number(g, "time", in: "sound.delay", range: Limits.delayTime, unit: "s", default: 0.375),
                               try r.number(g, "feedback", in: "sound.delay", range: Limits.feedback, unit: "", default: 0.3),
                               try r.number(g, "mix", in: "sound.delay", range: Limits.unit, unit: "", default: 0.2))
            } else { sound.delay = nil }
        }
        let reverb = r.optionalBlock(f, "reverb")
        if reverb.present {
            if let block = reverb.value {
                let g = try r.object(block, at: "sound.reverb", allowed: ["level", "room"])
                sound.reverb = (try r.number(g, "level", in: "sound.reverb", range: Limits.unit, unit: "", default: 0.25),
                                try r.number(g, "room", in: "sound.reverb", range: Limits.unit, unit: "", default: 0.5))
            } else { sound.reverb = nil }
        }
        return sound
    }
}
