/// The two instruments of a session.
public enum Voice: Int, Sendable, Hashable, CaseIterable, Codable {
    /// The bass ball's voice: roots of the scale degrees.
    case bass = 0
    /// The piano balls' voice: chord tones of the active chord.
    case keys = 1

    /// The name used for MIDI track names and logs ("Bass", "Keys").
    public var name: String { self == .bass ? "Bass" : "Keys" }
}

/// A note starting or ending, with the hit that caused it.
///
/// A flat value (no allocation) so the hot path can produce them by the thousand.
public struct NoteEvent: Sendable, Hashable {
    /// Whether a note starts or ends.
    public enum Kind: Sendable, Hashable { case on, off }

    /// Simulated time, seconds.
    public var time: Double
    /// Note-on or note-off.
    public var kind: Kind
    /// Which instrument.
    public var voice: Voice
    /// MIDI note number, 0…127.
    public var note: Int
    /// MIDI velocity 1…127 for note-ons; 0 for note-offs.
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

    /// Creates an event.
    public init(time: Double, kind: Kind, voice: Voice, note: Int, velocity: Int,
                ball: Int = -1, speed: Double = 0, degree: Int, key: Int = 0, tone: Int = 0) {
        self.time = time
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
