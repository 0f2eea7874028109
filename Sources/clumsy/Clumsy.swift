import ArgumentParser
import FileOutput
import Session
#if canImport(Glibc)
import Glibc
#endif

/// Raised by SIGINT/SIGTERM; the simulator checks it every step.
let stopSignal = StopSignal()

@main
struct ClumsyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clumsy",
        abstract: "A physics world plays an instrument: a bass ball picks the harmony, piano balls play it.",
        version: "\(Clumsy.name) \(Clumsy.version)",
        subcommands: [Run.self, Replay.self, Draw.self, Roll.self, Presets.self, Validate.self, Tones.self, Analyze.self],
        defaultSubcommand: nil)

    /// ArgumentParser's `main`, with signals, standard streams and error messages made safe:
    /// see `Signals`, `StandardStreams` and `Quote.message`.
    static func main() {
        StandardStreams.prepare()
        Signals.install()
        do {
            var command = try parseAsRoot()
            try command.run()
            try StandardStreams.finish()
            if Interruption.isRequested { throw ExitCode(128 + Interruption.requested) }
        } catch {
            if let code = error as? ExitCode {
                // A session stopped because stdout failed ends with stdout's status (74 or 141).
                do {
                    try StandardStreams.finish()
                } catch {
                    exit(withError: error)
                }
                exit(withError: code)
            }
            if exitCode(for: error) == .success {
                // --help, --version: printed here so that a failed stdout is noticed.
                TerminalOutput.standardOutput.write(fullMessage(for: error) + "\n")
                do {
                    try StandardStreams.finish()
                } catch {
                    exit(withError: error)
                }
                exit(withError: ExitCode.success)
            }
            // ArgumentParser's own messages quote the user's input: escape and cut it.
            TerminalOutput.standardOutput.flush()
            let err = TerminalOutput.standardError
            err.write(Quote.message(fullMessage(for: error)) + "\n")
            err.flush()
            exit(withError: ExitCode(exitCode(for: error).rawValue))
        }
    }
}

/// Prints a Session error the way every subcommand does and exits with its status.
/// After a stop signal the status is the signal's, 128 + its number (every file that could
/// be finished is), but the error is still printed: a file that could not be finished at
/// the stop (its temporary vanished, a stalled ffmpeg was ended) is never passed over in silence.
func fail(_ error: SessionError) -> ExitCode {
    TerminalOutput.standardOutput.flush()
    TerminalOutput.standardError.write("clumsy: error: \(Quote.message(error.description))\n")
    TerminalOutput.standardError.flush()
    if Interruption.isRequested { return ExitCode(128 + Interruption.requested) }
    return ExitCode(error.exitStatus)
}
