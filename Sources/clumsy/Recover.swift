// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Errors
import FileOutput
import Text

struct Recover: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rebuild a killed live run's files from the event log it left, offline.",
        discussion: """
        A live run writes its event log (--events) as it plays, each step's lines as
        the step ends. Killed (SIGKILL, a crash, the out-of-memory killer), it
        leaves the log in a hidden temporary beside the name it was given,
        .<name>.clumsy-live-<pid>-<hex>.tmp, which no other clumsy removes. Given
        the name (the killed run's temporary beside it is found) or the temporary,
        this replays the log, without its end line, up to the last step it shows,
        into the outputs given here (as `clumsy replay` does: --midi, --events for
        the completed log, which may take the name itself, --audio, …), and says
        on standard error how many events it found and up to which time. The MIDI
        file is byte-identical to what `clumsy replay` makes of the completed log.
        A last line cut by the kill is left out. A complete log is replayed as
        `clumsy replay` would.
        Exit status: as `clumsy replay`: 0 ok, 64 bad flag or an output over the log
        or another input, or several killed runs' logs beside the name, 65 not a
        live run's event log, 66 unreadable log or preset, 73 output cannot be
        created, 74 write error.
        """)

    @Argument(help: ArgumentHelp("The event log a killed live run left: its temporary, or the name it was given (--events).",
                                 valueName: "events.jsonl"),
              completion: .file())
    var log: String

    @OptionGroup
    var outputs: OutputFlags

    @OptionGroup
    var videoFlags: VideoFlags

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        // The name the live run was given finds the log its killed run left beside it.
        let left = TemporaryName.keptByDeadProcesses(for: log)
        guard left.count <= 1 else {
            throw fail(.usage("\(Quote.text(log)): \(left.count) killed live runs left their logs beside it; recover one at a time: "
                + left.prefix(8).map { Quote.text($0) }.joined(separator: ", ") + (left.count > 8 ? ", …" : "")))
        }
        try Replay.replay(log: left.first ?? log, outputs: outputs, videoFlags: videoFlags, quiet: quiet, recovering: true)
    }
}
