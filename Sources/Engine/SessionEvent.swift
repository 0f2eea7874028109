// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Performance

/// One thing that happened in a session, in simulated time.
public enum SessionEvent: Sendable, Equatable {
    /// A note started or ended.
    case note(NoteEvent)
    /// A ball was found outside its area and put back.
    case escape(time: Double, ball: Int)
    /// The bass ball hit no bouncer for too long (or looped between two) and was kicked in a new direction.
    case kick(time: Double)
    /// A piano ball struck no key for too long and was dropped again from the top.
    case drop(time: Double, ball: Int)
    /// A voice's MIDI controller changed (CC10 pan before a keys note placed by its key).
    case control(time: Double, voice: VoiceID, controller: Int, value: Int)
    /// The harmony changed: the chord named in the event sounds from its time on.
    case chord(ChordEvent)
    /// A live control took effect at the start of `step` (simulated `time`).
    case live(time: Double, step: Int64, control: Control)

    /// Simulated time, seconds.
    public var time: Double {
        switch self {
        case .note(let note): return note.time
        case .chord(let chord): return chord.time
        case .escape(let time, _), .kick(let time), .drop(let time, _), .control(let time, _, _, _), .live(let time, _, _): return time
        }
    }
}

/// Where a session's events go: a MIDI file, an event log, the terminal, a synthesizer.
///
/// Sinks know nothing of physics or theory: they receive events in time order.
public protocol SessionSink: AnyObject {
    /// Takes the events of one timestep (time-ordered, possibly empty); `time` is the step's end.
    func record(_ events: [SessionEvent], through time: Double) throws(SessionError)
    /// The session ended at `time` (all notes already ended): complete the output.
    func finish(at time: Double) throws(SessionError)
    /// The session failed: remove partial output, leave any earlier file untouched.
    func abandon()
}

/// Counts describing a finished session.
public struct Summary: Sendable, Equatable {
    /// Simulated seconds run.
    public var duration: Double = 0
    /// Notes played per voice, in the voices table's order (the opening tonic included in the bass's).
    public var notes: [Int]
    /// Bass notes played (the opening tonic included).
    public var bassNotes: Int { notes[VoiceID.bass.rawValue] }
    /// Keys notes played.
    public var keyNotes: Int { notes[VoiceID.keys.rawValue] }
    /// Balls put back after escaping.
    public var escapes = 0
    /// Kicks given to the bass ball.
    public var kicks = 0
    /// Piano balls dropped again.
    public var drops = 0
    /// True when a stop request ended the session early.
    public var wasInterrupted = false
    /// Number of fixed timesteps taken.
    public var steps: Int64 = 0
    /// How a session with an ending ended (nil without one, or when it was interrupted).
    public var ending: Ended?

    /// An empty summary for a session with `voices` voices.
    public init(voices: Int = 2) { notes = Array(repeating: 0, count: voices) }
}
