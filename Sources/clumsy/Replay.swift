// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Engine
import Errors
import EventLog
import Session
import Text

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-run a live session from its event log, offline and faster than real time.",
        discussion: """
        The log of `clumsy run --live --events <file>` opens with a session line
        (preset, seed, the settings that shape the notes, a digest of the plan) and
        records every live control (OSC) with the step at which it took effect.
        Replaying it gives byte-identical MIDI to the live run's --midi file. A log
        decides only the notes: outputs come from this command line alone.
        Exit status: 0 ok, 64 bad flag or an output over the log or another input,
        65 not a live run's event log (a flag in it that is not a setting, a bad
        setting, a timestep or preset that is not the live run's), 66 unreadable log
        or preset, 73 output cannot be created, 74 write error.
        """)

    @Argument(help: ArgumentHelp("The event log of a live run (.jsonl).", valueName: "events.jsonl"), completion: Completions.files("jsonl"))
    var log: String

    @OptionGroup
    var outputs: OutputFlags

    @OptionGroup
    var videoFlags: VideoFlags

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        try Self.replay(log: log, outputs: outputs, videoFlags: videoFlags, quiet: quiet)
    }

    /// Replays `log` into the outputs of this command line (`replay`'s, or `recover`'s with
    /// `recovering`: a log without its end line is then accepted, and what was found in it is
    /// said on standard error, unless `quiet`).
    static func replay(log: String, outputs: OutputFlags, videoFlags: VideoFlags, quiet: Bool, recovering: Bool = false) throws {
        let recorded: ReplayLog
        do {
            recorded = try ReplayLog.read(path: log, recovering: recovering)
        } catch {
            throw fail(error)
        }
        // Outputs come from this command line only; the log gives the preset, the settings and
        // the controls, read as data (`ReplaySettings`), never parsed as flags.
        let command: Run
        do {
            command = try Run.parse(outputs.arguments + videoFlags.arguments + (quiet ? ["--quiet"] : []))
        } catch {
            throw fail(.usage(Run.message(for: error)))
        }
        var request = try command.request()
        request.preset = recorded.settings.preset
        request.overrides = recorded.settings.overrides
        request.overrides.isExact = true
        request.duration = recorded.duration
        do {
            try command.validateOutputs(request)
        } catch {
            throw fail(.preset(file: log, field: "line 1", message: "the session line's settings do not go with these outputs: \(Run.message(for: error))"))
        }
        let warning = try check(recorded, request, log: log)
        request.replayedControls = recorded
        // The replay's own log (--events) is then byte-identical to the live run's.
        request.replay = ReplayRecord(arguments: recorded.arguments, presetName: "", seed: 0, timestep: recorded.timestep)
        request.inputs = [("the event log being replayed", log)]
        if let warning {
            TerminalOutput.standardError.write("clumsy: warning: \(Quote.message(warning))\n")
            TerminalOutput.standardError.flush()
        }
        if let recovery = recorded.recovery, !quiet {
            TerminalOutput.standardError.write("clumsy: \(Quote.message(recovery.description(path: log, timestep: recorded.timestep)))\n")
            TerminalOutput.standardError.flush()
        }
        try command.perform(request)
    }

    /// Checks the log against the session it describes, before anything is written: the
    /// recorded settings' values, the timestep and plan digest (`ReplayLog.verify`), and every
    /// recorded key change (a hand-edited log's may be one the session cannot play).
    /// - Returns: `verify`'s warning for a log without a digest.
    private static func check(_ recorded: ReplayLog, _ request: RunRequest, log: String) throws -> String? {
        do throws(SessionError) {
            let plan = try SessionPlan.resolve(preset: request.preset, overrides: request.overrides, duration: request.duration)
            let warning = try recorded.verify(plan: plan, presetPath: plan.source, log: log)
            for timed in recorded.sessionDependent {
                if let rejection = plan.rejection(of: timed.control) {
                    throw SessionError.preset(file: log, field: "the control at step \(timed.step)", message: rejection.description)
                }
            }
            return warning
        } catch {
            // The recorded settings' values are checked with the preset: a bad one is the log's fault.
            if case .usage(let message) = error {
                throw fail(.preset(file: log, field: "line 1", message: "the session line's settings are not accepted: \(message)"))
            }
            throw fail(error)
        }
    }
}
