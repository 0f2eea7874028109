// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import Text
#if canImport(Glibc)
import Glibc
#endif

/// What a live session's event log says so that `clumsy replay` can re-run it exactly.
///
/// The first line of the log, `{"t":0.000000,"kind":"session",…,"arguments":[…]}`: the
/// program version, the preset, the seed, the timestep, the plan's digest (`PlanDigest`) and
/// the `clumsy run` arguments that shape the notes (preset, seed, gravity, speed, tone,
/// effects; read back as `ReplaySettings`, nothing else accepted). The log then records every
/// control change with its step and ends with `{"t":…,"kind":"end","step":N}`.
public struct ReplayRecord: Sendable, Equatable {
    /// `clumsy run` arguments: the preset first, then flags with their values (outputs excluded).
    public var arguments: [String]
    /// The preset's name.
    public var presetName: String
    /// The seed in use.
    public var seed: UInt64
    /// Seconds per step.
    public var timestep: Double
    /// The plan's digest (`PlanDigest`), when known.
    public var plan: String?

    /// Creates a record.
    public init(arguments: [String], presetName: String, seed: UInt64, timestep: Double, plan: String? = nil) {
        self.arguments = arguments
        self.presetName = presetName
        self.seed = seed
        self.timestep = timestep
        self.plan = plan
    }

    /// The log's first line (no newline).
    public var line: String {
        var record = EventLogRecord(t: 0, kind: "session")
        record.format = EventLogRecord.format
        (record.clumsy, record.preset, record.seed) = (Clumsy.version, presetName, String(seed))
        (record.timestep, record.plan, record.arguments) = (timestep, plan, arguments)
        return record.line
    }
}

/// A live session's event log read back for `clumsy replay`.
public struct ReplayLog: Sendable, Equatable {
    /// The `clumsy run` arguments recorded in the `session` line.
    public var arguments: [String]
    /// What those arguments decide: the preset and the settings (nothing else is accepted).
    public var settings: ReplaySettings
    /// The plan's digest recorded in the session line (nil in a log written before it was).
    public var plan: String?
    /// The log's path: its controls are read from it as they are played (`controls()`), never
    /// held all at once, so a replay's memory does not grow with its control lines.
    public var path: String
    /// How many control lines the log holds (each checked by `read`, in step order).
    public var controlCount: Int
    /// The controls themselves when there are at most `heldLimit` (read again from the file
    /// otherwise): a short log replays from memory, a long one in constant memory.
    var held: [TimedControl]?
    /// The controls whose acceptance depends on the session (`SessionPlan.rejection`): each
    /// key and voice name once, the largest ball count; at most `distinctLimit` of each.
    public var sessionDependent: [TimedControl] = []

    /// Controls held in memory at most; 65 536 take about 3 MB.
    static let heldLimit = 1 << 16
    /// Distinct keys or voice names a log may name.
    static let distinctLimit = 256
    /// The step the session ended at (from the `end` line).
    public var endStep: Int64
    /// Seconds per step.
    public var timestep: Double

    /// Simulated seconds to run: exactly `endStep` steps.
    public var duration: Double { Double(endStep) * timestep }

    /// The session line's contents.
    private struct Header {
        var arguments: [String]
        var settings: ReplaySettings
        var plan: String?
        var timestep: Double
    }

    /// What `clumsy recover` found in the log (nil for `replay`).
    public var recovery: LogRecovery?

    /// Reads `path` (each line an `EventLogRecord`). Errors name the file, the line and what
    /// was expected (exit 65: a session line of a format this clumsy does not know among
    /// them), or say the file cannot be read (66).
    ///
    /// `recovering` (`clumsy recover`): the log of a live run that was killed may lack its end
    /// line, and its last line may be cut (no newline: left out); the session then ends at the
    /// step its last line shows it reached (`LogRecovery`).
    public static func read(path: String, recovering: Bool = false) throws(SessionError) -> ReplayLog {
        // A regular file only, never waited on, and lines of a bounded length (see EventLogLines).
        let lines = try EventLogLines(path: path)
        var header: Header?
        var controlCount = 0
        var lastStep: Int64 = 0
        var held: [TimedControl]? = []
        var dependent = SessionDependent()
        var endStep: Int64?
        var found = LogRecovery.Tally()
        /// The lines of the last control and of the end line, for the errors that name them.
        var controlLine = 0, endLine = 0
        while let line = try lines.next() {
            let number = lines.number
            let raw = Array(line)
            guard !raw.isEmpty else { continue }
            func bad(_ message: String) -> SessionError { .preset(file: path, field: "line \(number)", message: message) }
            if recovering && lines.isCut {
                found.isCut = true   // the line a killed writer was writing
                break
            }
            // Only session, control and end lines matter; skip the others without parsing them.
            let text = String(decoding: raw, as: UTF8.self)
            guard text.contains("\"kind\":\"session\"") || text.contains("\"kind\":\"control\"") || text.contains("\"kind\":\"end\"") else {
                if header == nil { throw bad("the first line must be the session line of a live run's event log (clumsy run --live --events …)") }
                found.add(raw, line: number)
                continue
            }
            let record = try EventLogRecord(parsing: raw, path: path, line: number)
            switch record.kind {
            case "session":
                guard header == nil else { throw bad("a second session line") }
                header = try session(record, file: path, line: number, bad: bad)
            case "control":
                guard header != nil else { throw bad("a control before the session line") }
                // A live run's end line is its last control-bearing line (issue 44).
                guard endStep == nil else { throw bad("a control after the end line (line \(endLine)): a live run writes its end line last") }
                let timed = try control(record, bad: bad)
                guard timed.step >= lastStep else {
                    throw bad("a control at step \(timed.step) after one at step \(lastStep): a live run writes its controls in step order")
                }
                lastStep = timed.step
                controlLine = number
                controlCount += 1
                found.add(raw, line: number)
                if controlCount > heldLimit { held = nil } else { held?.append(timed) }
                try dependent.add(timed, bad: bad)
            case "end":
                guard endStep == nil else { throw bad("a second end line (the first is line \(endLine)): a live run writes one, last") }
                guard let step = record.step, step >= 0 else { throw bad("the end line needs a whole \"step\" ≥ 0") }   // 0: stopped before the first step
                // A control is logged when it is applied, at the start of a step the run then
                // plays: a replay of `step` steps would silently leave a later one out.
                guard controlCount == 0 || step > lastStep else {
                    throw bad("the end line's step \(step) is not after the control at step \(lastStep) (line \(controlLine)): a live run ends "
                              + "after the steps of its controls; accepted: an end step of at least \(lastStep + 1)")
                }
                (endStep, endLine) = (step, number)
            default:
                throw bad("a line of kind \(Format.jsonString(record.kind)) where a session, control or end line was expected")
            }
        }
        guard let header else { throw .preset(file: path, field: "", message: "no session line: only a live run's event log (clumsy run --live --events …) can be replayed") }
        let recovery = recovering ? try found.recovery(path: path, timestep: header.timestep, lastControl: controlCount > 0 ? lastStep : nil,
                                                       endStep: endStep) : nil
        guard let endStep = endStep ?? recovery?.endStep else {
            throw .preset(file: path, field: "", message: "no end line: the live run did not finish writing its log "
                + "(if it was killed, clumsy recover rebuilds its files from what it wrote)")
        }
        return ReplayLog(arguments: header.arguments, settings: header.settings, plan: header.plan, path: path,
                         controlCount: controlCount, held: held, sessionDependent: dependent.controls,
                         endStep: endStep, timestep: header.timestep, recovery: recovery)
    }

    /// The session line: its arguments (read as `ReplaySettings`), timestep and plan digest.
    private static func session(_ record: EventLogRecord, file: String, line: Int,
                                bad: (String) -> SessionError) throws(SessionError) -> Header {
        guard let arguments = record.arguments, !arguments.isEmpty else { throw bad("the session line has no \"arguments\" array") }
        guard let timestep = record.timestep, timestep > 0, timestep.isFinite else { throw bad("the session line needs a positive \"timestep\"") }
        let settings = try ReplaySettings(arguments: arguments, file: file, line: line)
        return Header(arguments: arguments, settings: settings, plan: record.plan, timestep: timestep)
    }

    /// The log's controls, read from the file one line at a time as they are asked for.
    /// - Throws: `.noInput` (66) when the file cannot be opened again.
    public func controls() throws(SessionError) -> ReplayControlStream {
        if let held { return ReplayControlStream(held) }
        return try ReplayControlStream(path: path)
    }

    /// A control line: the control and its step.
    static func control(_ record: EventLogRecord, bad: (String) -> SessionError) throws(SessionError) -> TimedControl {
        guard let step = record.step, step >= 0 else { throw bad("a control needs a whole \"step\" ≥ 0") }
        guard let name = record.control else { throw bad("a control needs a \"control\" name") }
        guard let row = Control.row(named: name) else { throw bad(Control.unknown(name).description) }
        let argument: ControlArgument
        switch row.shape {
        case .none, .number, .whole:
            argument = record.value.map(ControlArgument.number) ?? .none
        case .key:
            guard let tonic = record.tonic, let mode = record.mode else { throw bad("a key control needs a \"tonic\" and a \"mode\" (strings)") }
            argument = .key(tonic: tonic, mode: mode)
        case .level:
            guard let voice = record.voice else { throw bad("a level control needs a \"voice\" (a string)") }
            argument = .level(voice: voice, value: record.value)
        }
        let made = row.make(argument)
        switch made {
        case .success(let control): return TimedControl(step: step, control: control)
        case .failure(let rejection): throw bad(rejection.description)
        }
    }

    /// Checks that `plan`, built from this log's settings with the preset at `presetPath` today,
    /// is the live run's: the same timestep (else its controls would fall at other times) and
    /// the same plan digest (else the preset file changed). `log` is this log's path.
    /// - Returns: a warning when the log has no digest to compare (a log written before logs
    ///   had one, or by hand): its timestep is checked, an edited preset would go unnoticed.
    /// - Throws: `SessionError.preset` (65) naming the log, line 1 and the mismatch.
    public func verify(plan: SessionPlan, presetPath: String, log: String) throws(SessionError) -> String? {
        let timestep = plan.world.timestep
        guard timestep == self.timestep else {
            throw .preset(file: log, field: "line 1", message: "the log's timestep \(Format.plain(self.timestep)) s is not the one "
                + "the preset \(Quote.text(presetPath, limit: 2 * Quote.defaultLimit)) gives today (\(Format.plain(timestep)) s): its controls would fall at other "
                + "times; replay it with the preset it was recorded with")
        }
        let digest = try PlanDigest.of(presetPath: presetPath, arguments: arguments, timestep: timestep)
        guard let recorded = self.plan else {
            return "\(Quote.text(log)): line 1: no plan digest (a log written by hand or by an older clumsy): replayed with the "
                + "preset \(Quote.text(presetPath, limit: 2 * Quote.defaultLimit)) as it is now; if it was edited since the live run, the replay differs"
        }
        guard recorded == digest else {
            throw .preset(file: log, field: "line 1", message: "the plan digest \(Format.jsonString(recorded)) is not that of the "
                + "preset \(Quote.text(presetPath, limit: 2 * Quote.defaultLimit)) and the recorded settings today (\(digest)): the preset file changed since the "
                + "live run, so the replay would differ; restore it or record the set again")
        }
        return nil
    }
}
