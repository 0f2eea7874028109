// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import EventLog
import FileOutput
import Live
import Sinks
import Sound

/// One kind of output a session can have (a MIDI file, the event log, audio, stems, a video,
/// a score, live ports, OSC, live sound, the text view): its flags, the checks of their values,
/// the files it writes (for `OutputCheck`), the sinks it opens and its words in the summary.
///
/// `SessionRunner.run` and `clumsy replay` know no output by name: they iterate
/// `SessionOutputs.table`. Adding a file output is one file holding a value of this protocol
/// (and its sink) plus one row in that table (and the flag in the command line's `OutputFlags`).
/// Every requirement but `flags` and `isRequested` has a default that does nothing.
protocol SessionOutput: Sendable {
    /// The command-line flags this output takes ("--midi"), as a user types them.
    var flags: [String] { get }
    /// Whether `request` asks for this output.
    func isRequested(_ request: RunRequest) -> Bool
    /// Whether it writes files of the user's (then the text view stays off and progress shows).
    func writesFiles(_ request: RunRequest) -> Bool
    /// Whether it needs the synthesizer (then the SoundFont is located and checked first).
    func needsSound(_ request: RunRequest) -> Bool
    /// Checks the values and combinations of its flags, before anything runs.
    /// - Throws: `SessionError.usage` with the sentence a user sees (exit 64).
    func validate(_ request: RunRequest) throws(SessionError)
    /// Looks for what it needs outside the program (ffmpeg), before the output check.
    func prepare(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError)
    /// The files it will write, each named by the flag that names it: every one takes part in
    /// `OutputCheck` (no output over an input or over another output).
    func paths(_ run: OutputRun) throws(SessionError) -> [OutputCheck.Named]
    /// Checks that only make sense once the files are known not to collide (disk space).
    func verify(_ run: OutputRun) throws(SessionError)
    /// Opens its sinks (and control sources) into `wiring`; a bad path fails here, before the session runs.
    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError)
    /// What the summary's "wrote …" lists for it, once the session has run.
    func summary(_ run: OutputRun, _ wiring: OutputWiring) -> [String]
}

extension SessionOutput {
    func writesFiles(_ request: RunRequest) -> Bool { false }
    func needsSound(_ request: RunRequest) -> Bool { false }
    func validate(_ request: RunRequest) throws(SessionError) {}
    func prepare(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {}
    func paths(_ run: OutputRun) throws(SessionError) -> [OutputCheck.Named] { [] }
    func verify(_ run: OutputRun) throws(SessionError) {}
    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {}
    func summary(_ run: OutputRun, _ wiring: OutputWiring) -> [String] { [] }
}

/// A file output named by one flag (`--midi file.mid`): requested when the flag is given,
/// checked, listed and summarised by that one path (`RunRequest.files[flag]`).
protocol SingleFileOutput: SessionOutput {
    /// The flag that names the file.
    var flag: String { get }
}

extension SingleFileOutput {
    var flags: [String] { [flag] }
    func path(_ request: RunRequest) -> String? { request.files[flag] }
    func isRequested(_ request: RunRequest) -> Bool { path(request) != nil }
    func writesFiles(_ request: RunRequest) -> Bool { isRequested(request) }
    func paths(_ run: OutputRun) throws(SessionError) -> [OutputCheck.Named] { path(run.request).map { [(flag, $0)] } ?? [] }
    func summary(_ run: OutputRun, _ wiring: OutputWiring) -> [String] {
        path(run.request).map { [StandardOutputName.shown($0)] } ?? []
    }

    /// Refuses an empty name ("--midi needs a file name").
    func requireName(_ request: RunRequest) throws(SessionError) {
        if let path = path(request), path.isEmpty { throw .usage("\(flag) needs a file name") }
    }
}

/// What every output sees of the run being wired: the request and what was resolved from it.
struct OutputRun {
    /// What the user asked for.
    let request: RunRequest
    /// The session, resolved.
    let plan: SessionPlan
    /// The SoundFont, when an output needs sound.
    var soundFont: String?
    /// Where a stop request comes from.
    let stop: StopSignal?
    /// True when any requested output writes files.
    var writesFiles: Bool { SessionOutputs.writesFiles(request) }
    /// The terminal's standard output (text view, summary).
    let standardOutput: TerminalOutput
    /// The terminal's standard error (live status, progress).
    let standardError: TerminalOutput
}

/// What the outputs opened so far hand to the runner and to the outputs after them (the video
/// takes the audio render's sound): the sinks, in table order, and the few that the runner
/// paces by, takes controls from or reports on.
final class OutputWiring {
    /// Every sink opened, in table order.
    var sinks: [SessionSink] = []
    /// ffmpeg's path, found by the video's `prepare`.
    var ffmpeg: String?
    /// The synthesizers' settings, when the run has sound.
    var samplerConfiguration: SamplerConfiguration?
    /// The mix request after the environment (`CLUMSY_THREADS`).
    var mix = MixRequest()
    /// The audio render (`--audio`), for the video's sound and the summary's loudness report.
    var audio: AudioFileSink?
    /// The video, which also observes the engine's steps.
    var video: VideoSink?
    /// Live MIDI ports: the pace of a JACK session, and its failure.
    var liveMIDI: LiveMIDISink?
    /// The control sources the outputs opened, in table order (the live MIDI ports', OSC in,
    /// MIDI in): polled each step in this order, after a replayed log's, before the master's.
    var controls: [ControlSource] = []
    /// The master followed (`--clock-in`, `--link`): a control source polled last each step,
    /// and the live pace.
    var master: (any MasterClock)?
    /// JACK transport followed (`--transport`): played in takes, paced by the transport.
    var transport: TransportSync?
    /// Closes what listens for the session (OSC in, MIDI in, the master), in the order opened.
    private var closers: [() -> Void] = []
    /// What tells that a server the session depends on went away (the live MIDI ports', the
    /// master's, the live synthesizer's watch), in the order opened.
    private var failureChecks: [() -> SessionError?] = []
    /// The stems' MIDI files written.
    var stemMIDIPaths: [String] = []

    /// Abandons every sink opened (a later one failed to open).
    func abandon() {
        for sink in sinks { sink.abandon() }
    }

    /// Keeps `close` to stop an input listening when the session ends (`closeInputs()`).
    func closesAtEnd(_ close: @escaping () -> Void) { closers.append(close) }

    /// Keeps `check` to tell, after the run, whether a server the session depends on went away.
    func failsWith(_ check: @escaping () -> SessionError?) { failureChecks.append(check) }

    /// The first server that went away during the session (every file was completed): the
    /// runner ends with it (exit 74), nil when none did.
    var failure: SessionError? {
        for check in failureChecks {
            if let failure = check() { return failure }
        }
        return nil
    }

    /// Stops every input listening, once: after the run, and again (doing nothing) on the way out.
    func closeInputs() {
        let closing = closers
        closers = []
        for close in closing { close() }
    }
}
