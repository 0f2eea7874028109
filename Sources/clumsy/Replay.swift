import ArgumentParser
import Session

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run a live session from its event log, offline and faster than real time.",
        discussion: """
        The log of `clumsy run --live --events <file>` opens with a session line
        (preset, seed and the flags that shape the notes) and records every live
        control (OSC) with the step at which it took effect. Replaying it gives
        byte-identical MIDI to the live run's --midi file.
        Exit status: 0 ok, 64 bad flag, 65 not a live run's event log (or a recorded
        flag not accepted), 66 unreadable log or preset, 73 output cannot be created,
        74 write error.
        """)

    @Argument(help: ArgumentHelp("The event log of a live run (.jsonl).", valueName: "events.jsonl"))
    var log: String

    @OptionGroup
    var outputs: OutputFlags

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        let recorded: ReplayLog
        do {
            recorded = try ReplayLog.read(path: log)
        } catch {
            throw fail(error)
        }
        var arguments = recorded.arguments + ["--duration", "\(recorded.duration)"]
        arguments += outputs.arguments
        if quiet { arguments.append("--quiet") }
        let command: Run
        do {
            command = try Run.parse(arguments)
        } catch {
            throw fail(.preset(file: log, field: "line 1", message: "the session line's arguments are not accepted: \(Run.message(for: error))"))
        }
        var request = try command.request()
        // The recorded flags' values are checked with the preset: a bad one is the log's fault.
        do throws(SessionError) {
            let configuration = try Configuration(preset: try PresetLibrary.load(request.preset), overrides: request.overrides, duration: request.duration)
            // A recorded key change must be one the session can play (a hand-edited log's may not be).
            let plan = SessionPlan(configuration: configuration)
            for timed in recorded.controls {
                if let rejection = plan.rejection(of: timed.control) {
                    throw SessionError.preset(file: log, field: "the control at step \(timed.step)", message: rejection.description)
                }
            }
        } catch {
            if case .usage(let message) = error {
                throw fail(.preset(file: log, field: "line 1", message: "the session line's arguments are not accepted: \(message)"))
            }
            throw fail(error)
        }
        request.replayedControls = recorded.controls
        // The replay's own log (--events) is then byte-identical to the live run's.
        request.replay = ReplayRecord(arguments: recorded.arguments, presetName: "", seed: 0, timestep: recorded.timestep)
        try command.perform(request)
    }
}
