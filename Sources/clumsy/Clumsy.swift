// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Engine
import Errors
import EventLog
import FileOutput
import Presets
import Session
import Text
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// The process's one stop flag (`StopSignal.process`): raised by SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT and a failed write to standard output; the simulator checks it every step.
let stopSignal = StopSignal.process

@main
struct ClumsyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clumsy",
        abstract: "A physics world plays an instrument: a bass ball picks the harmony, piano balls play it.",
        version: """
            \(Clumsy.name) \(Clumsy.version)
            Copyright 2026 The Clumsy authors
            License GPL-3.0-or-later: GNU GPL version 3 or later <https://www.gnu.org/licenses/gpl-3.0.html>.
            This is free software: you are free to change and redistribute it.
            There is NO WARRANTY, to the extent permitted by law.
            """,
        subcommands: [Run.self, Replay.self, Recover.self, Draw.self, Roll.self, Presets.self, Validate.self, Tones.self, Analyze.self, BatchCommand.self],
        defaultSubcommand: nil)

    /// ArgumentParser's `main`, with signals, standard streams and error messages made safe:
    /// see `Signals`, `StandardStreams` and `Quote.message`.
    static func main() {
        StandardStreams.prepare()
        Signals.install()
        do {
            let arguments = commandLine()
            try checkSubcommand(arguments)
            HelpPreset.note(arguments)
            var command = try parseAsRoot(arguments)
            try command.run()
            try StandardStreams.finish()
            if StopSignal.process.isRaised { throw ExitCode(128 + StopSignal.process.raised) }
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
            // ArgumentParser's own messages quote the user's input: escape and cut it. They
            // begin "Error: "; every message of clumsy's begins "clumsy: error: ".
            TerminalOutput.standardOutput.flush()
            let err = TerminalOutput.standardError
            var message = fullMessage(for: error)
            if message.hasPrefix("Error: ") { message = "clumsy: error: " + message.dropFirst("Error: ".count) }
            err.write(Quote.message(message) + "\n")
            err.flush()
            exit(withError: ExitCode(exitCode(for: error).rawValue))
        }
    }
}

extension ClumsyCommand {
    /// Refuses an unknown subcommand (also after `help`) with the nearest one, before the
    /// parser calls it an unexpected argument (or `help` shows the overview and exits 0).
    static func checkSubcommand(_ arguments: [String]) throws {
        let names = configuration.subcommands.map { $0._commandName }
        var words = arguments
        if words.first == "help" { words.removeFirst() }
        guard let word = words.first, !word.hasPrefix("-"), !names.contains(word), word != "help" else { return }
        throw ValidationError("unknown subcommand \(word)\(Suggestion.didYouMean(word, in: names)); subcommands: \(names.joined(separator: ", "))")
    }
}

/// The arguments after the program's name, each decoded from its bytes by `PathBytes`, so
/// that a file name that is not UTF-8 reaches the system unchanged (`CommandLine.arguments`
/// would have replaced its bytes by U+FFFD).
func commandLine() -> [String] {
    (1..<Int(CommandLine.argc)).compactMap { index in
        CommandLine.unsafeArgv[index].map { PathBytes.string(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
    }
}

/// Prints a Session error the way every subcommand does and exits with its status.
/// After a stop signal the status is the signal's, 128 + its number (every file that could
/// be finished is), but the error is still printed: a file that could not be finished at
/// the stop (its temporary vanished, a stalled ffmpeg was ended) is never passed over in silence.
func fail(_ error: SessionError) -> ExitCode {
    StandardStreams.noteReported(error)
    TerminalOutput.standardOutput.flush()
    TerminalOutput.standardError.write("clumsy: error: \(Quote.message(error.description))\n")
    TerminalOutput.standardError.flush()
    if StopSignal.process.isRaised { return ExitCode(128 + StopSignal.process.raised) }
    return ExitCode(error.exitStatus)
}
