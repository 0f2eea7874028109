// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Text

/// What `clumsy recover` found in the event log of a live run that may have been killed: how
/// many events, up to which time and step, and whether the log was complete.
///
/// A live run writes each step's lines as the step ends (`EventLogWriter`), so a killed run's
/// log holds every step that had events up to the kill, perhaps its last line cut. The session
/// is then replayed up to the step its last line shows it reached: a control line at step k
/// was taken at the start of step k (so k + 1 steps ran), a note or chord at t sounded within
/// the step that ended at or just after t. Where t falls on a step's end, give or take the
/// rounding of the log's 6 decimals, the event may have come with that step or with the next:
/// the next is run too, so no logged event is left out (at most one step, 1/240 s by default,
/// is played that the killed run may not have reached).
public struct LogRecovery: Sendable, Equatable {
    /// The lines after the session line, the end line left out: notes, chords, the rules'
    /// events and the controls.
    public var events: Int
    /// The time of the last of them, seconds (0 without any).
    public var lastTime: Double
    /// The steps to replay: the end line's, or those the last line shows were run.
    public var endStep: Int64
    /// True when the log had its end line (the run finished, or was stopped cleanly).
    public var isComplete: Bool
    /// True when the file ended in a line without its newline, which was left out.
    public var hadCutLine: Bool

    /// The sentence `clumsy recover` prints about it, `path` being the log.
    public func description(path: String, timestep: Double) -> String {
        var text = "\(Quote.text(path)): \(events) event\(events == 1 ? "" : "s") up to \(Format.fixed(lastTime, decimals: 3)) s"
        if isComplete {
            text += " and the end line at step \(endStep): the log is complete"
        } else {
            text += ", no end line (the live run was killed or crashed): recovering \(endStep) steps, "
                + "\(Format.fixed(Double(endStep) * timestep, decimals: 3)) s of the session"
        }
        if hadCutLine { text += "; its last line was cut and is left out" }
        return text
    }

    /// The steps a session must run for an event at `time` to have been delivered (see above).
    static func steps(reaching time: Double, timestep: Double) -> Int64 {
        let steps = time / timestep
        let nearest = steps.rounded()
        return abs(steps - nearest) < 1e-3 ? Int64(nearest) + 1 : Int64(steps.rounded(.up))
    }

    /// Counts the event lines while `ReplayLog.read` reads the log, keeping the last one.
    struct Tally {
        var events = 0
        var isCut = false
        private var last: (bytes: [UInt8], line: Int)?

        mutating func add(_ bytes: [UInt8], line: Int) {
            events += 1
            last = (bytes, line)
        }

        /// The recovery, once the whole log is read: `lastControl` is the step of its last
        /// control line, `endStep` its end line's.
        /// - Throws: `.preset` (65) when the last line's time is not one a session could reach.
        func recovery(path: String, timestep: Double, lastControl: Int64?, endStep: Int64?) throws(SessionError) -> LogRecovery {
            var time = 0.0
            var reached: Int64 = 0
            if let last {
                time = try EventLogRecord(parsing: last.bytes, path: path, line: last.line).t
                guard time.isFinite, time >= 0, time / timestep < 1e12 else {
                    throw .preset(file: path, field: "line \(last.line)", message: "\"t\" must be the seconds of a session (0 or more)")
                }
                reached = LogRecovery.steps(reaching: time, timestep: timestep)
            }
            if let lastControl { reached = max(reached, lastControl + 1) }
            return LogRecovery(events: events, lastTime: time, endStep: endStep ?? reached, isComplete: endStep != nil, hadCutLine: isCut)
        }
    }
}
