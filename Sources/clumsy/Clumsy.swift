import ArgumentParser
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
        subcommands: [Run.self, Replay.self, Presets.self, Validate.self, Tones.self],
        defaultSubcommand: nil)
}

/// Prints a Session error the way every subcommand does and exits with its status.
func fail(_ error: SessionError) -> ExitCode {
    TerminalOutput.standardOutput.flush()
    TerminalOutput.standardError.write("clumsy: error: \(error)\n")
    TerminalOutput.standardError.flush()
    return ExitCode(error.exitStatus)
}
