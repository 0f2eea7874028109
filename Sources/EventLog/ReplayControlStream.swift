// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import Theory

/// The controls of a replayed log as the session reaches their steps (`clumsy replay`): from
/// memory for a short log, else read again from the file one line at a time, so a log of ten
/// million control lines replays in the memory of one of a hundred thousand. `ReplayLog.read`
/// has checked every line (and that the steps never go back) before this reads them again.
public final class ReplayControlStream: ControlSource {
    private let lines: EventLogLines?
    private var waiting: TimedControl?
    /// What stopped the stream (the file changed under the replay), reported after the run.
    public private(set) var failure: SessionError?

    private var held: [TimedControl]
    private var nextHeld = 0

    /// The controls of the log at `path`, read again from the file.
    init(path: String) throws(SessionError) {
        lines = try EventLogLines(path: path)
        held = []
    }

    /// Controls already in memory (a short log).
    init(_ controls: [TimedControl]) {
        lines = nil
        held = controls
    }

    /// The next control of the log, or nil after the last.
    /// - Throws: `.preset` (65) or `.data` (65) for a line that no longer reads as it did.
    public func next() throws(SessionError) -> TimedControl? {
        if let waiting {
            self.waiting = nil
            return waiting
        }
        guard let lines else {
            guard nextHeld < held.count else { return nil }
            nextHeld += 1
            return held[nextHeld - 1]
        }
        while let line = try lines.next() {
            let number = lines.number
            let raw = Array(line)
            guard !raw.isEmpty, String(decoding: raw, as: UTF8.self).contains("\"kind\":\"control\"") else { continue }
            let record = try EventLogRecord(parsing: raw, path: lines.path, line: number)
            guard record.kind == "control" else { continue }
            return try ReplayLog.control(record) { .preset(file: lines.path, field: "line \(number)", message: $0) }
        }
        return nil
    }

    public func poll(step: Int64, into controls: inout [Control]) -> Bool {
        guard failure == nil else { return false }
        do throws(SessionError) {
            while let timed = try next() {
                guard timed.step <= step else {
                    waiting = timed
                    break
                }
                controls.append(timed.control)
            }
        } catch {
            failure = error
            return false
        }
        return true
    }
}

/// The controls of a log whose acceptance depends on the session they are replayed in
/// (`SessionPlan.rejection`), gathered while the log is read so that `clumsy replay` checks
/// them before anything is written without holding every control: each key and each voice name
/// once, and the largest ball count.
struct SessionDependent {
    private(set) var controls: [TimedControl] = []
    private var keys = Set<Key>()
    private var voices = Set<String>()
    private var balls: (count: Int, index: Int)?

    mutating func add(_ timed: TimedControl, bad: (String) -> SessionError) throws(SessionError) {
        switch timed.control {
        case .balls(let count):
            if let balls {
                if count > balls.count { (self.balls, controls[balls.index]) = ((count, balls.index), timed) }
            } else {
                balls = (count, controls.count)
                controls.append(timed)
            }
        case .level(let voice, _):
            guard voices.insert(voice).inserted else { return }
            guard voices.count <= ReplayLog.distinctLimit else { throw bad("more than \(ReplayLog.distinctLimit) voice names in level controls") }
            controls.append(timed)
        case .key(let key):
            guard keys.insert(key).inserted else { return }
            guard keys.count <= ReplayLog.distinctLimit else { throw bad("more than \(ReplayLog.distinctLimit) keys in key controls") }
            controls.append(timed)
        default:
            return
        }
    }
}
