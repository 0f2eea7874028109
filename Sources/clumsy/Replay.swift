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

    @Option(help: ArgumentHelp("Write a Standard MIDI File.", valueName: "file.mid"))
    var midi: String?

    @Option(help: ArgumentHelp("Write the replayed session's event log.", valueName: "file.jsonl"))
    var events: String?

    @Option(help: ArgumentHelp("Render audio to a .wav, .flac or .ogg file through FluidSynth.", valueName: "file"))
    var audio: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Audio sample rate in Hz, a whole number (\(Limits.text(Limits.sampleRate)); default 44100).", valueName: "Hz"))
    var sampleRate: String?

    @Option(help: ArgumentHelp("SoundFont file (.sf2/.sf3).", valueName: "file"))
    var soundfont: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let sampleRate {
            guard let rate = Int(sampleRate), Limits.sampleRate.contains(rate) else {
                throw ValidationError("--sample-rate \(sampleRate) is not accepted; expected a whole number of Hz in \(Limits.text(Limits.sampleRate))")
            }
        }
    }

    func run() throws {
        let recorded: ReplayLog
        do {
            recorded = try ReplayLog.read(path: log)
        } catch {
            throw fail(error)
        }
        var arguments = recorded.arguments + ["--duration", "\(recorded.duration)"]
        if let sampleRate { arguments += ["--sample-rate", sampleRate] }
        if let midi { arguments += ["--midi", midi] }
        if let events { arguments += ["--events", events] }
        if let audio { arguments += ["--audio", audio] }
        if let soundfont { arguments += ["--soundfont", soundfont] }
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
