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

    /// No overrides.
    public init(seed: UInt64? = nil, gravity: Double? = nil, speed: Double? = nil, keysTone: String? = nil) {
        self.seed = seed
        self.gravity = gravity
        self.speed = speed
        self.keysTone = keysTone
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

        let fastest = max(preset.speed, 1.1 * (2 * preset.gravity * layout.pianoArea.height).squareRoot())
        let smallest = min(preset.bass.radius, preset.piano.radius, preset.bass.bouncerRadius, 25 * Preset.metresPerPoint)
        let substeps = WorldConfiguration.substeps(timestep: preset.timestep, fastestSpeed: fastest, smallestRadius: smallest)
        world = WorldConfiguration(
            bassArea: layout.bassArea, pianoArea: layout.pianoArea, bouncers: layout.bouncers, keys: layout.keys,
            bassStart: layout.bassStart, bassVelocity: direction * preset.speed, bassRadius: preset.bass.radius,
            bassSpeed: preset.speed, pianoStarts: layout.pianoStarts, pianoRadius: preset.piano.radius,
            pianoRestitution: preset.piano.restitution, pianoFriction: preset.piano.friction,
            gravity: preset.gravity, timestep: preset.timestep, substeps: substeps,
            iterations: 10, sleepTimeThreshold: preset.piano.count > 64 ? 0.5 : nil)
        guard world.problems.isEmpty else { throw .software("world configuration rejected: \(world.problems)") }

        let bassCurve = preset.bass.velocity
        let keysCurve = preset.keys.velocity
        performer = PerformerConfiguration(
            key: preset.key, bassBase: preset.bass.register, keysBase: preset.keys.register, voicing: preset.keys.voicing,
            bassCurve: VelocityCurve(quietSpeed: bassCurve.quiet * preset.speed, loudSpeed: bassCurve.loud * preset.speed, exponent: bassCurve.exponent),
            keysCurve: VelocityCurve(quietSpeed: keysCurve.quiet, loudSpeed: keysCurve.loud, exponent: keysCurve.exponent),
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

    /// Number of fixed timesteps in the session.
    public var stepCount: Int64 { Int64((duration / preset.timestep).rounded()) }
}
