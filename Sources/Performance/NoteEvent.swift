// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A note starting or ending, with the cause of it. (A change of harmony is not a note:
/// `ScheduledEvent.harmony`.)
///
/// A flat value (no allocation) so the hot path can produce them by the thousand.
public struct NoteEvent: Sendable, Hashable {
    /// Whether a note starts or ends. (A voice's controllers are `SessionEvent.control`,
    /// never notes.)
    public enum Kind: Sendable, Hashable {
        /// A note starts.
        case on
        /// A note ends.
        case off
    }

    /// Simulated time at which it sounds, seconds.
    public var time: Double
    /// Note-on or note-off.
    public var kind: Kind
    /// Which row of the voices table.
    public var voice: VoiceID
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
    /// Why the note sounds: what was struck, or which note a derived voice doubles
    /// (`.none` for note-offs).
    public var cause: Cause
    /// Simulated time of the physical hit, seconds: `time` or earlier (quantised notes sound later).
    public var hit: Double

    /// Creates an event (`hit` defaults to `time`).
    public init(time: Double, kind: Kind, voice: VoiceID, note: Int, velocity: Int,
                ball: Int = -1, speed: Double = 0, degree: Int, cause: Cause = .none, hit: Double? = nil) {
        self.time = time
        self.hit = hit ?? time
        self.kind = kind
        self.voice = voice
        self.note = note
        self.velocity = velocity
        self.ball = ball
        self.speed = speed
        self.degree = degree
        self.cause = cause
    }
}

extension NoteEvent {
    /// Why a note sounds. A flat enumeration with whole-number payloads: no allocation per event.
    public enum Cause: Sendable, Hashable {
        /// Not a note-on (a note-off, a controller, a chord change).
        case none
        /// The session's first note: the root of chord I in the bass, before any hit.
        case opening
        /// An ending's last bar line: the root of chord I in the bass (no bouncer struck).
        case ending
        /// The bass ball struck the bouncer of scale degree 1…7: that chord's root.
        case bassHit(degree: Int)
        /// A bass leading note: an approach a grid step before a new root (no bouncer struck).
        case leadingNote
        /// A piano ball struck key 1…K (left to right), which plays chord tone 1…5 of the chord.
        case keyHit(key: Int, tone: Int)
        /// A piano ball struck key 1…K under `melodic` keys: the melody moved by `step` scale steps.
        case melodyStep(key: Int, step: Int)
        /// A drum played by `source`.
        case drum(DrumSource)
        /// A derived voice's double of MIDI note `of` of voice `from`, sounding with it.
        case derived(from: VoiceID, of: Int)

        /// The key struck (1…K) for a key hit or a melody step; nil otherwise.
        public var key: Int? {
            switch self {
            case .keyHit(let key, _), .melodyStep(let key, _): return key
            default: return nil
            }
        }
    }

    /// What played a drum note.
    public enum DrumSource: String, Sendable, Hashable, CaseIterable {
        /// A ball against a side wall (or the ceiling) of its area; the bass ball's walls too.
        case wall
        /// A piano ball on the floor between the keys.
        case floor
        /// The stomp on its beats.
        case stomp
        /// The metronome's click.
        case metronome
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

/// What the scheduler hands out, in time order: a note starting or ending, or the harmony
/// changing.
///
/// A flat value, as `NoteEvent` is: the hot path hands them out by the thousand.
public enum ScheduledEvent: Sendable, Hashable {
    /// A note starts or ends.
    case note(NoteEvent)
    /// The harmony changes to the chord of scale degree `degree` (1…7) at `time`, seconds
    /// (no note: the simulator names the chord with the performer, a `ChordEvent`).
    case harmony(time: Double, degree: Int)

    /// When it happens, simulated seconds.
    public var time: Double {
        switch self {
        case .note(let note): return note.time
        case .harmony(let time, _): return time
        }
    }

    /// The note, if it is one.
    public var note: NoteEvent? {
        if case .note(let note) = self { return note }
        return nil
    }
}
