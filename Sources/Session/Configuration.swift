import Theory
import Physics
import Performance
#if canImport(Glibc)
import Glibc
#endif

/// Values given on the command line that override the preset's (nil = keep the preset's).
public struct Overrides: Sendable, Equatable {
    /// Random seed.
    public var seed: UInt64?
    /// Gravity, m/s².
    public var gravity: Double?
    /// Bass ball speed, m/s.
    public var speed: Double?
    /// Keys tone name.
    public var keysTone: String?
    /// Low-pass cutoff in Hz, or off.
    public var filter: EffectSetting?
    /// Low-pass resonance, dB (needs the filter on).
    public var resonance: Double?
    /// Delay time in seconds, or off.
    public var delay: EffectSetting?
    /// Delay feedback 0…0.95 (needs the delay on).
    public var feedback: Double?
    /// Delay wet mix 0…1 (needs the delay on).
    public var delayMix: Double?
    /// Reverb level 0…1, or off.
    public var reverb: EffectSetting?
    /// Reverb room size 0…1 (needs the reverb on).
    public var room: Double?
    /// Switch filter, delay and reverb off.
    public var isDry = false

    /// No overrides.
    public init(seed: UInt64? = nil, gravity: Double? = nil, speed: Double? = nil, keysTone: String? = nil) {
        self.seed = seed
        self.gravity = gravity
        self.speed = speed
        self.keysTone = keysTone
    }
}

/// An effect flag's value: a number, or `off`.
public enum EffectSetting: Sendable, Equatable {
    /// The effect is switched off.
    case off
    /// The effect is on with this main value (Hz, seconds or level).
    case value(Double)

    /// Parses "off" or a number.
    public init?(_ text: String) {
        if text.lowercased() == "off" { self = .off; return }
        guard let number = Double(text) else { return nil }
        self = .value(number)
    }
}

/// A session fully resolved: every value validated, units explicit, ready to simulate.
public struct Configuration: Sendable {
    /// The preset with the overrides applied.
    public var preset: Preset
    /// Simulated length of the session, seconds.
    public var duration: Double
    /// The seed in use.
    public var seed: UInt64
    /// Geometry.
    public var layout: Layout
    /// The physics world.
    public var world: WorldConfiguration
    /// The note mapping.
    public var performer: PerformerConfiguration
    /// Bass tone.
    public var bassTone: Tone
    /// Keys tone.
    public var keysTone: Tone
    /// Effects after flags (the preset's sound block with the flags applied).
    public var sound: Preset.Sound { preset.sound }

    /// Resolves `preset` with `overrides` for a session of `duration` seconds.
    public init(preset: Preset, overrides: Overrides = Overrides(), duration: Double) throws(SessionError) {
        var preset = preset
        if let seed = overrides.seed { preset.seed = seed }
        if let gravity = overrides.gravity {
            guard Limits.gravity.contains(gravity) else { throw .usage("--gravity \(gravity) is out of range; accepted: \(Limits.text(Limits.gravity, unit: "m/s²"))") }
            preset.gravity = gravity
        }
        if let speed = overrides.speed {
            guard Limits.speed.contains(speed) else { throw .usage("--speed \(speed) is out of range; accepted: \(Limits.text(Limits.speed, unit: "m/s"))") }
            preset.speed = speed
        }
        if let tone = overrides.keysTone {
            guard Tone.keys(named: tone) != nil else {
                throw .usage("--tone \(tone) is not a keys tone; accepted: \(Tone.keysCatalog.map(\.name).joined(separator: ", "))")
            }
            preset.keys.tone = tone
        }
        preset.sound = try Self.applySound(overrides, to: preset.sound)
        guard Limits.duration.contains(duration) else {
            throw .usage("--duration \(duration) is out of range; accepted: \(Limits.text(Limits.duration, unit: "s"))")
        }
        self.preset = preset
        self.duration = duration
        self.seed = preset.seed
        self.bassTone = Tone.bass(named: preset.bass.tone)!
        self.keysTone = Tone.keys(named: preset.keys.tone)!
        self.layout = try Layout.make(preset, seed: preset.seed)

        var launch = SplitMix64(seed: preset.seed, stream: RandomStream.launch.rawValue)
        let diagonal = launch.below(4)
        let d = 0.7071067811865476
        let direction = Vector(diagonal & 1 == 0 ? d : -d, diagonal & 2 == 0 ? d : -d)

        let crowded = preset.piano.count > Self.crowdSize
        let substeps = Self.substeps(preset, layout, gravity: preset.gravity, speed: preset.speed)
        world = WorldConfiguration(
            bassArea: layout.bassArea, pianoArea: layout.pianoArea, bouncers: layout.bouncers, keys: layout.keys,
            bassStart: layout.bassStart, bassVelocity: direction * preset.speed, bassRadius: preset.bass.radius,
            bassSpeed: preset.speed, pianoStarts: layout.pianoStarts, pianoRadius: preset.piano.radius,
            pianoRestitution: preset.piano.restitution, pianoFriction: preset.piano.friction,
            gravity: preset.gravity, timestep: preset.timestep, substeps: substeps,
            iterations: crowded ? 5 : 10, sleepTimeThreshold: crowded ? 0.5 : nil)
        world.pianoBallsCollide = preset.piano.collide
        world.fillers = layout.fillers
        if crowded {
            world.spatialHash = .init(cellSize: 4 * preset.piano.radius, cells: 10 * (preset.piano.count + Self.crowdSize))
        }
        guard world.problems.isEmpty else { throw .software("world configuration rejected: \(world.problems)") }

        performer = PerformerConfiguration(
            key: preset.key, bassBase: preset.bass.register, keysBase: preset.keys.register, voicing: preset.keys.voicing,
            // The bass curve is written in fractions of the bass speed.
            bassCurve: preset.bass.velocity.curve.scaled(by: preset.speed),
            keysCurve: preset.keys.velocity.curve,
            bassNoteLength: preset.bass.noteLength, keysNoteLength: preset.keys.noteLength,
            bassMinimumSpeed: 0, keysMinimumSpeed: preset.keys.minimumSpeed)
        // Every note must be a valid MIDI note.
        let probe = Performer(configuration: performer)
        for degree in 1...7 {
            guard (0...127).contains(probe.bassNote(degree: degree)) else {
                throw .preset(file: preset.source, field: "bass.register", message: "puts bass notes outside MIDI 0…127")
            }
            for tone in 1...4 where !(0...127).contains(probe.keysNote(degree: degree, tone: tone)) {
                throw .preset(file: preset.source, field: "keys.register", message: "puts chord tones outside MIDI 0…127 with the \(preset.keys.voicing.rawValue) voicing")
            }
        }
    }

    private static func within(_ flag: String, _ value: Double, _ range: ClosedRange<Double>, _ unit: String) throws(SessionError) -> Double {
        guard value.isFinite, range.contains(value) else {
            throw .usage("\(flag) \(value) is out of range; accepted: \(Limits.text(range, unit: unit))")
        }
        return value
    }

    /// Applies the effect flags to a preset's sound block.
    static func applySound(_ o: Overrides, to preset: Preset.Sound) throws(SessionError) -> Preset.Sound {
        var sound = preset
        if o.isDry {
            let conflicting = [("--filter", o.filter != nil), ("--resonance", o.resonance != nil), ("--delay", o.delay != nil),
                               ("--feedback", o.feedback != nil), ("--delay-mix", o.delayMix != nil),
                               ("--reverb", o.reverb != nil), ("--room", o.room != nil)].filter(\.1).map(\.0)
            guard conflicting.isEmpty else {
                throw .usage("--dry switches every effect off; it cannot be combined with \(conflicting.joined(separator: ", "))")
            }
            sound.filter = nil
            sound.delay = nil
            sound.reverb = nil
            return sound
        }
        switch o.filter {
        case .off?: sound.filter = nil
        case .value(let hz)?: sound.filter = (try within("--filter", hz, Limits.cutoff, "Hz"), sound.filter?.resonance ?? 0)
        case nil: break
        }
        if let resonance = o.resonance {
            guard sound.filter != nil else { throw .usage("--resonance needs the filter on: add --filter <Hz>") }
            sound.filter!.resonance = try within("--resonance", resonance, Limits.resonance, "dB")
        }
        switch o.delay {
        case .off?: sound.delay = nil
        case .value(let time)?:
            sound.delay = (try within("--delay", time, Limits.delayTime, "s"), sound.delay?.feedback ?? 0.3, sound.delay?.mix ?? 0.2)
        case nil: break
        }
        if let feedback = o.feedback {
            guard sound.delay != nil else { throw .usage("--feedback needs the delay on: add --delay <s>") }
            sound.delay!.feedback = try within("--feedback", feedback, Limits.feedback, "")
        }
        if let mix = o.delayMix {
            guard sound.delay != nil else { throw .usage("--delay-mix needs the delay on: add --delay <s>") }
            sound.delay!.mix = try within("--delay-mix", mix, Limits.unit, "")
        }
        switch o.reverb {
        case .off?: sound.reverb = nil
        case .value(let level)?: sound.reverb = (try within("--reverb", level, Limits.unit, ""), sound.reverb?.room ?? 0.5)
        case nil: break
        }
        if let room = o.room {
            guard sound.reverb != nil else { throw .usage("--room needs the reverb on: add --reverb <level>") }
            sound.reverb!.room = try within("--room", room, Limits.unit, "")
        }
        return sound
    }

    /// Chipmunk sub-steps per timestep for `preset` under `gravity` (m/s²) with the bass ball at
    /// `speed` (m/s): no ball may jump the smallest gap in one Chipmunk step.
    static func substeps(_ preset: Preset, _ layout: Layout, gravity: Double, speed: Double) -> Int {
        let fastest = max(speed, WorldConfiguration.pianoSpeedLimit(gravity: gravity, height: layout.pianoArea.height))
        // The smallest gap that a step must not jump: a ball's radius where balls meet balls,
        // else a piano ball's radius plus a key's half thickness (12.5 points).
        let keyHalfThickness = 12.5 * Preset.metresPerPoint
        let pianoGap = preset.piano.collide ? preset.piano.radius : preset.piano.radius + keyHalfThickness
        let smallest = min(preset.bass.radius, preset.bass.bouncerRadius, pianoGap, keyHalfThickness * 2)
        return WorldConfiguration.substeps(timestep: preset.timestep, fastestSpeed: fastest, smallestRadius: smallest)
    }

    /// Sub-steps for this session under live `gravity` and bass `speed`.
    func substeps(gravity: Double, speed: Double) -> Int {
        Self.substeps(preset, layout, gravity: gravity, speed: speed)
    }

    /// Piano ball count above which a session is tuned for crowds: Chipmunk's sleeping and
    /// spatial hash, 5 solver iterations, and 128 synthesizer voices instead of 256.
    public static let crowdSize = 64

    /// True when the session has more than `crowdSize` piano balls.
    public var isCrowded: Bool { preset.piano.count > Self.crowdSize }

    /// Number of fixed timesteps in the session.
    public var stepCount: Int64 { max(1, Int64((duration / preset.timestep).rounded())) }
}
