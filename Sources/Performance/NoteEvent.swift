/// A note starting or ending (or a voice's controller changing), with the hit that caused it.
///
/// A flat value (no allocation) so the hot path can produce them by the thousand.
public struct NoteEvent: Sendable, Hashable {
    /// Whether a note starts or ends, or a controller changes.
    public enum Kind: Sendable, Hashable {
        /// A note starts.
        case on
        /// A note ends.
        case off
        /// The voice's controller number `note` takes the value `velocity` (CC10 pan before a keys note).
        case control
        /// The harmony changes to the chord of scale degree `degree` (no note: the simulator
        /// turns it into a `ChordEvent` named by the performer).
        case chord
    }

    /// Simulated time at which it sounds, seconds.
    public var time: Double
    /// Note-on, note-off or controller.
    public var kind: Kind
    /// Which row of the voices table.
    public var voice: VoiceID
    /// MIDI note number, 0…127 (the controller number for `.control`).
    public var note: Int
    /// MIDI velocity 1…127 for note-ons; 0 for note-offs; the controller value for `.control`.
    public var velocity: Int
    /// The ball that struck (0 = bass ball, also for the opening note; 1…N piano balls); -1 for note-offs.
    public var ball: Int
    /// Impact speed along the contact normal, m/s (0 for the opening note and note-offs).
    public var speed: Double
    /// Scale degree 1…7 of the active chord after this event.
    public var degree: Int
    /// Key number 1…K for key hits (position from the left), else 0.
    public var key: Int
    /// Chord tone 1…4 (root, 3rd, 5th, 7th) for key hits, else 0.
    public var tone: Int
    /// Simulated time of the physical hit, seconds: `time` or earlier (quantised notes sound later).
    public var hit: Double
    /// What was struck, for percussion: 0 none, 1 a wall, 2 the floor, 3 the stomp, 4 the metronome.
    public var drum: Int

    /// `tone` of a bass note that is a leading note (an approach a grid step before a new root).
    public static let leadingTone = -1

    /// Creates an event (`hit` defaults to `time`).
    public init(time: Double, kind: Kind, voice: VoiceID, note: Int, velocity: Int,
                ball: Int = -1, speed: Double = 0, degree: Int, key: Int = 0, tone: Int = 0, hit: Double? = nil, drum: Int = 0) {
        self.time = time
        self.hit = hit ?? time
        self.drum = drum
        self.kind = kind
        self.voice = voice
        self.note = note
        self.velocity = velocity
        self.ball = ball
        self.speed = speed
        self.degree = degree
        self.key = key
        self.tone = tone
    }
}

/// A hit the performer can play: the physics contact translated into musical terms.
public struct Hit: Sendable, Hashable {
    /// What was struck.
    public enum Target: Sendable, Hashable {
        /// A bouncer standing for scale degree 1…7.
        case degree(Int)
        /// Key number 1…K, playing chord tone 1…4.
        case key(number: Int, tone: Int)
        /// A side wall (or the ceiling) of the ball's area.
        case wall
        /// The floor of the piano area (between and below the keys).
        case floor
    }

    /// Simulated time, seconds.
    public var time: Double
    /// The ball (0 = bass ball).
    public var ball: Int
    /// What it struck.
    public var target: Target
    /// Impact speed, m/s.
    public var speed: Double

    /// Creates a hit.
    public init(time: Double, ball: Int, target: Target, speed: Double) {
        self.time = time
        self.ball = ball
        self.target = target
        self.speed = speed
    }
}
