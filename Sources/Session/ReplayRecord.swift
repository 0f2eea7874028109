#if canImport(Glibc)
import Glibc
#endif

/// What a live session's event log says so that `clumsy replay` can re-run it exactly.
///
/// The first line of the log, `{"t":0.000000,"kind":"session",…,"arguments":[…]}`: the
/// program version, the preset, the seed, the timestep and the `clumsy run` arguments that
/// shape the notes (preset, seed, gravity, speed, tone, effects). The log then records every
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

    /// Creates a record.
    public init(arguments: [String], presetName: String, seed: UInt64, timestep: Double) {
        self.arguments = arguments
        self.presetName = presetName
        self.seed = seed
        self.timestep = timestep
    }

    /// The log's first line (no newline).
    public var line: String {
        "{\"t\":0.000000,\"kind\":\"session\",\"clumsy\":\(Format.jsonString(Clumsy.version)),"
            + "\"preset\":\(Format.jsonString(presetName)),\"seed\":\"\(seed)\",\"timestep\":\(Format.plain(timestep)),"
            + "\"arguments\":[\(arguments.map(Format.jsonString).joined(separator: ","))]}"
    }
}

/// A live session's event log read back for `clumsy replay`.
public struct ReplayLog: Sendable, Equatable {
    /// The `clumsy run` arguments recorded in the `session` line.
    public var arguments: [String]
    /// Every control change, in log order.
    public var controls: [TimedControl]
    /// The step the session ended at (from the `end` line).
    public var endStep: Int64
    /// Seconds per step.
    public var timestep: Double

    /// Simulated seconds to run: exactly `endStep` steps.
    public var duration: Double { Double(endStep) * timestep }

    /// Reads `path`. Errors name the file, the line and what was expected (exit 65), or say the
    /// file cannot be read (66).
    public static func read(path: String) throws(SessionError) -> ReplayLog {
        // A regular file only, never waited on, and lines of a bounded length (see EventLogLines).
        let lines = try EventLogLines(path: path)
        var arguments: [String]?
        var timestep = 0.0
        var controls: [TimedControl] = []
        var endStep: Int64?
        while let line = try lines.next() {
            let number = lines.number
            let raw = Array(line)
            guard !raw.isEmpty else { continue }
            func bad(_ message: String) -> SessionError { .preset(file: path, field: "line \(number)", message: message) }
            // Only session, control and end lines matter; skip the others without parsing them.
            let text = String(decoding: raw, as: UTF8.self)
            guard text.contains("\"kind\":\"session\"") || text.contains("\"kind\":\"control\"") || text.contains("\"kind\":\"end\"") else {
                if arguments == nil { throw bad("the first line must be the session line of a live run's event log (clumsy run --live --events …)") }
                continue
            }
            let value: JSONValue
            do {
                value = try JSONParser.parse(Array(raw))
            } catch {
                throw bad("\(error)")
            }
            guard case .object(let members) = value else { throw bad("expected a JSON object") }
            func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
            guard case .string(let kind)? = member("kind") else { throw bad("no \"kind\"") }
            switch kind {
            case "session":
                guard arguments == nil else { throw bad("a second session line") }
                guard case .array(let items)? = member("arguments"), !items.isEmpty else { throw bad("the session line has no \"arguments\" array") }
                var list: [String] = []
                for item in items {
                    guard case .string(let s) = item else { throw bad("\"arguments\" must hold strings") }
                    list.append(s)
                }
                guard case .number(let dt, _)? = member("timestep"), dt > 0, dt.isFinite else { throw bad("the session line needs a positive \"timestep\"") }
                arguments = list
                timestep = dt
            case "control":
                guard arguments != nil else { throw bad("a control before the session line") }
                guard case .number(let step, _)? = member("step"), step >= 0, step == step.rounded(), step < 9e15 else {
                    throw bad("a control needs a whole \"step\" ≥ 0")
                }
                guard case .string(let name)? = member("control") else { throw bad("a control needs a \"control\" name") }
                var number: Double?
                if case .number(let x, _)? = member("value") { number = x }
                let made: Result<Control, ControlRejection>
                if name == "key" {
                    guard case .string(let tonic)? = member("tonic"), case .string(let mode)? = member("mode") else {
                        throw bad("a key control needs a \"tonic\" and a \"mode\" (strings)")
                    }
                    made = Control.key(tonic: tonic, mode: mode)
                } else {
                    made = Control.make(name: name, value: number)
                }
                switch made {
                case .success(let control): controls.append(TimedControl(step: Int64(step), control: control))
                case .failure(let rejection): throw bad(rejection.description)
                }
            default: // end
                guard case .number(let step, _)? = member("step"), step >= 1, step == step.rounded(), step < 9e15 else {
                    throw bad("the end line needs a whole \"step\" ≥ 1")
                }
                endStep = Int64(step)
            }
        }
        guard let arguments else { throw .preset(file: path, field: "", message: "no session line: only a live run's event log (clumsy run --live --events …) can be replayed") }
        guard let endStep else { throw .preset(file: path, field: "", message: "no end line: the live run did not finish writing its log") }
        return ReplayLog(arguments: arguments, controls: controls, endStep: endStep, timestep: timestep)
    }
}
