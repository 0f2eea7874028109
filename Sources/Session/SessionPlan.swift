import Theory
import Physics
import Performance

/// The musical-time settings of a session (tempo, meter, grid, feel, voices' places, drums),
/// resolved and validated; the defaults play exactly what the original app played.
public struct TimeSettings: Sendable, Equatable {
    /// Quarter notes per minute, or nil for the preset's `tempo`.
    public var tempo: Double? = nil
    /// Time signature.
    public var meter = Meter("4/4")!
    /// Quantisation grid.
    public var quantize = Grid.off
    /// 1 = onto the grid line, 0 = where it was struck.
    public var strength = 1.0
    /// Delay of every second grid line, as a fraction of a grid step.
    public var swing = 0.0
    /// Accent on beat 1 of a bar, velocity steps (quantised notes only).
    public var downbeatAccent = 12
    /// Accent on the meter's other strong beats, velocity steps (quantised notes only).
    public var strongAccent = 6
    /// Velocities 1…127 are mapped onto velocityFloor…127 (0 = unchanged).
    public var velocityFloor = 0
    /// When a bass hit's chord takes over.
    public var chordChange = ChordChange.hit
    /// End ringing key notes that are not tones of the new chord at the change.
    public var endsNonChordTones = false
    /// The keys' dribble gate, or nil.
    public var dribble: DribbleGate? = nil
    /// Keys pan: by key position, or fixed.
    public var keysPan = Voice.Pan.position
    /// Bass pan −1…1.
    public var bassPan = 0.0
    /// Keys level, CC7 0…127.
    public var keysLevel = 100
    /// Bass level, CC7 0…127.
    public var bassLevel = 72
    /// Percussion level, CC7 0…127.
    public var percussionLevel = 100
    /// Percussion pan −1…1.
    public var percussionPan = 0.0
    /// Drums, or nil for no percussion voice.
    public var percussion: PercussionPlan? = nil

    /// The original app's musical time: 120 bpm 4/4, nothing quantised, keys panned by position.
    public init() {}
}

/// A session resolved: everything downstream (the simulator, the performer, every sink) reads
/// this value, never the preset.
public struct SessionPlan: Sendable {
    /// The preset's name (summaries, the MIDI file's text).
    public var name: String
    /// Simulated length, seconds.
    public var duration: Double
    /// Seed of every random choice.
    public var seed: UInt64
    /// Key and scale.
    public var key: Key
    /// Gravity on the piano balls, m/s² (for the MIDI file's text).
    public var gravity: Double
    /// Bass ball speed, m/s.
    public var speed: Double
    /// Geometry.
    public var layout: Layout
    /// The physics world.
    public var world: WorldConfiguration
    /// Tempo, meter, grid and feel.
    public var clock: Clock
    /// Accents and velocity floor.
    public var feel: Feel
    /// The voices table.
    public var voices: VoiceTable
    /// The harmony and the sources of the notes.
    public var performer: PerformerConfiguration
    /// Chord tone (1…4) of each key, left to right.
    public var keyTones: [Int]
    /// The session's rules.
    public var rules: Rules
    /// Effects (SoundFont, filter, delay, reverb).
    public var sound: Preset.Sound
    /// True for crowds (more than `Configuration.crowdSize` piano balls).
    public var isCrowded: Bool
    /// Number of fixed timesteps.
    public var stepCount: Int64

    /// The session's rules: when the bass ball is kicked and piano balls are dropped again.
    public struct Rules: Sendable {
        /// Seconds without a bouncer hit before the bass ball is kicked.
        public var kickAfter: Double
        /// Seconds without a key hit before a piano ball is dropped again.
        public var redropAfter: Double
        /// Seconds a piano ball may lie still before it is dropped again.
        public var restAfter: Double
        /// Piano ball radius, metres.
        public var pianoRadius: Double
        /// Whether piano balls collide with each other.
        public var pianoBallsCollide: Bool
    }

    /// Resolves a configuration (preset + flags) with its musical-time settings.
    public init(configuration c: Configuration, time: TimeSettings = TimeSettings()) {
        let preset = c.preset
        name = preset.name
        duration = c.duration
        seed = c.seed
        key = preset.key
        gravity = preset.gravity
        speed = preset.speed
        layout = c.layout
        world = c.world
        clock = Clock(tempo: time.tempo ?? preset.tempo, meter: time.meter, grid: time.quantize, strength: time.strength, swing: time.swing)
        feel = Feel(downbeatAccent: time.downbeatAccent, strongAccent: time.strongAccent, velocityFloor: time.velocityFloor)
        var rows = [
            // The bass curve is written in fractions of the bass speed.
            Voice(name: "Bass", channel: 0, tone: c.bassTone, curve: preset.bass.velocity.curve.scaled(by: preset.speed),
                  noteLength: preset.bass.noteLength, level: time.bassLevel, pan: .fixed(time.bassPan), source: .bassBall),
            Voice(name: "Keys", channel: 1, tone: c.keysTone, curve: preset.keys.velocity.curve,
                  noteLength: preset.keys.noteLength, level: time.keysLevel, pan: time.keysPan, source: .pianoBalls),
        ]
        if time.percussion != nil {
            rows.append(Voice(name: "Drums", channel: 9, tone: Drum.kit, curve: preset.keys.velocity.curve, noteLength: 0.2,
                              level: time.percussionLevel, pan: .fixed(time.percussionPan), source: .percussion))
        }
        voices = VoiceTable(rows)
        var performer = c.performer
        performer.chordChange = time.chordChange
        performer.endsNonChordTones = time.endsNonChordTones
        performer.dribble = time.dribble
        performer.percussion = time.percussion ?? PercussionPlan()
        performer.pianoBalls = preset.piano.count
        if case .position = time.keysPan {
            // Each key's notes sit where the key is: the leftmost key hard left, the rightmost hard right.
            let centres = c.layout.keys.map { ($0.frame.minX + $0.frame.maxX) / 2 }
            let left = centres.min() ?? 0
            let width = (centres.max() ?? 0) - left
            performer.keyPans = centres.map { x in
                Voice.panController(width > 0 ? 2 * (x - left) / width - 1 : 0)
            }
        } else {
            performer.keyPans = nil
        }
        self.performer = performer
        world.recordsWallContacts = time.percussion?.needsWallContacts ?? false
        keyTones = preset.keys.tones
        rules = Rules(kickAfter: preset.bass.kickAfter, redropAfter: preset.piano.redropAfter, restAfter: preset.piano.restAfter,
                      pianoRadius: preset.piano.radius, pianoBallsCollide: preset.piano.collide)
        sound = c.sound
        isCrowded = c.isCrowded
        stepCount = c.stepCount
    }
}
