// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Controls
import Engine
import EventLog
import FileOutput
import Live
import Presets
import Session
import Sinks
import Text
#if canImport(Glibc)
import Glibc
#endif

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a session and record it.",
        discussion: """
        With no --midi or --events, the performance is printed as readable lines, then a summary.
        With --video, a video of the session with its sound, drawn with Cairo and encoded by ffmpeg.
        Exit status: 0 ok, 64 bad flag or an output over an input, 65 bad preset, 66 unknown preset or \
        unreadable file, 69 no audio device, JACK server or ALSA sequencer, or no ffmpeg (--video), \
        73 output cannot be created, 74 write error (also on stdout), the JACK server went away or \
        ffmpeg failed, 129/130/131/143 stopped by SIGHUP/SIGINT/SIGQUIT/SIGTERM (files complete up \
        to then), 141 stdout's reader went away.
        """)

    @Argument(help: "A bundled preset's name (see `clumsy presets`) or a path to a preset file.", completion: Completions.presets)
    var preset: String = "default"

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated time to run: 90, 90s, 5m, 1h30m or 2:30 (\(Limits.text(Limits.duration)) s; default 60, or until Ctrl-C with --live).", valueName: "time"))
    var duration: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Run this many bars at the session's tempo and meter instead of --duration.", valueName: "n"))
    var bars: String?

    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Set any preset field, checked as in a preset file (repeatable): --set piano.count=8 --set bass.tone=fretless-bass. Applied before the other flags.", valueName: "field=value"), completion: Completions.fields)
    var assignments: [String] = []

    /// The flags that set preset fields (generated from the settings table).
    @OptionGroup(title: "Preset settings")
    var settings: SettingFlags

    @OptionGroup
    var outputs: OutputFlags

    @Flag(help: "Switch the filter, delay and reverb off.")
    var dry = false

    @Flag(help: "Play live through an audio driver, paced to the wall clock, until --duration or Ctrl-C.")
    var live = false

    @Option(help: ArgumentHelp("Audio driver for --live (this FluidSynth has: \(AudioDrivers.list)). With `file`, sound goes to --audio's file (default clumsy-live.wav) in real time.", valueName: "name"), completion: Completions.audioDrivers)
    var audioDriver: String?

    @Option(help: ArgumentHelp("With --live: send each voice's notes to live MIDI ports, `jack` (client clumsy, ports clumsy:bass, clumsy:keys, …; paced by the JACK server's clock) or `alsa` (sequencer client Clumsy). The internal synthesizer then stays silent unless --audio-driver is given.", valueName: "jack|alsa"), completion: .list(["jack", "alsa"]))
    var midiOut: String?

    @Option(help: ArgumentHelp("With --midi-out jack: connect every voice's port to this JACK MIDI input (repeatable); the clock port has --connect-clock.", valueName: "port"))
    var connect: [String] = []

    @Option(help: ArgumentHelp("With --midi-out jack --clock-out: connect the clock port to this JACK MIDI input (repeatable).", valueName: "port"))
    var connectClock: [String] = []

    @Option(help: ArgumentHelp("With --live --audio-driver jack: connect the synthesizer's clumsy:left and clumsy:right to these JACK audio inputs (given twice: left, then right; once: both) instead of the system's playback ports; `none` connects nothing.", valueName: "port"))
    var connectAudio: [String] = []

    @Flag(help: "With --midi-out: a `clock` port sending MIDI clock (24 per quarter note at the session tempo), Start at the first note, Stop at the end.")
    var clockOut = false

    @Option(help: ArgumentHelp("With --live: follow a MIDI clock master on JACK input clumsy-clock:clock_in (jack:<port> connects that output to it) or ALSA sequencer input Clumsy-clock:clock_in (alsa:<client:port> subscribes it to that output): its tempo, Start, Stop, Continue and song position; the session waits for Start and pauses at Stop.", valueName: "jack[:port]|alsa[:client:port]"))
    var clockIn: String?

    @Option(help: ArgumentHelp("With --live: follow JACK transport: its timebase master's tempo and meter, start and stop; a locate plays the session from that bar, in the state it has there.", valueName: "jack"))
    var transport: String?

    @Flag(help: "With --live: join an Ableton Link session on the local network: its tempo (yours, when you are the first), its bars (the session begins at its next bar line) and its start and stop.")
    var link = false

    @Option(help: ArgumentHelp("With --live: play along from JACK MIDI input clumsy-in:midi_in or ALSA sequencer input Clumsy-in:midi_in (connect a controller or sequencer to it): a chord of three or more held notes sets the key whose tonic chord it is and plays it, a single note drops a piano ball; logged, so replay plays them again.", valueName: "jack|alsa"))
    var midiIn: String?

    @Option(help: ArgumentHelp("With --live: send every event as OSC (/clumsy/note, /clumsy/chord, /clumsy/hit, …) to host:port.", valueName: "host:port"))
    var oscOut: String?

    @Option(help: ArgumentHelp("With --live: accept OSC controls (\(Control.table.map(\.message).joined(separator: ", "))) on UDP [addr:]port (address 127.0.0.1 unless given).", valueName: "[addr:]port"))
    var oscIn: String?

    @OptionGroup
    var videoFlags: VideoFlags

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        _ = try seconds()
        _ = try barCount()
        _ = try fieldAssignments()
        // --sample-rate has been checked by `OutputFlags`, --fps and --size by `VideoFlags`, before this.
        if let soundfont = outputs.soundfont, soundfont.isEmpty { throw ValidationError("--soundfont needs a file name (leave the flag out for the default)") }
        if let midiOut, MIDIOutKind(rawValue: midiOut) == nil {
            throw ValidationError("--midi-out \(midiOut) is not accepted; expected jack or alsa")
        }
        // Each output checks its own flags; outputs naming the same file (or an input) are
        // refused by the session's OutputCheck.
        try validateOutputs(try request())
    }

    /// Checks the outputs of `request` (`SessionOutputs.validate`): for `clumsy replay`, with
    /// the settings of the log it replays.
    func validateOutputs(_ request: RunRequest) throws {
        do { try SessionOutputs.validate(request) } catch { throw ValidationError(error.description) }
    }

    /// The `clumsy run` arguments that shape the notes and the MIDI file (not the outputs):
    /// what a live run's event log records so `clumsy replay` can run it again. Every flag of
    /// the settings table that was given, in the table's order, and --dry.
    func replayArguments() -> [String] {
        var arguments = [PresetLibrary.isPresetPath(preset) ? canonicalPath(preset) : preset]
        for assignment in (try? fieldAssignments()) ?? [] { arguments += ["--set", assignment.description] }
        let given = settings.given
        for setting in Settings.flagged {
            if let flag = setting.flag, let text = given[flag] { arguments += [setting.flagName, text] }
        }
        if dry { arguments.append("--dry") }
        return arguments
    }

    /// `--set` assignments, each naming a field once.
    func fieldAssignments() throws -> [FieldAssignment] {
        var parsed: [FieldAssignment] = []
        for text in assignments {
            let assignment: FieldAssignment
            do { assignment = try FieldAssignment(parsing: text) } catch { throw ValidationError(error.description) }
            if parsed.contains(where: { $0.path == assignment.path }) { throw ValidationError("--set \(assignment.path) is given twice") }
            parsed.append(assignment)
        }
        return parsed
    }

    /// `--duration` in seconds, if given.
    func seconds() throws -> Double? {
        guard let duration else { return nil }
        guard let seconds = DurationText.seconds(duration) else {
            throw ValidationError("--duration \(duration) is not a duration; accepted: \(DurationText.accepted), \(Limits.text(Limits.duration, unit: "s"))")
        }
        guard Limits.duration.contains(seconds) else {
            throw ValidationError("--duration \(duration) is out of range; accepted: \(Limits.text(Limits.duration, unit: "s")), written as \(DurationText.accepted)")
        }
        return seconds
    }

    /// `--bars`, if given: a whole number of bars.
    func barCount() throws -> Int? {
        guard let bars else { return nil }
        guard duration == nil else { throw ValidationError("--bars and --duration both set the session's length: give one") }
        guard let count = Int(bars), count >= 1, count <= 100_000 else {
            throw ValidationError("--bars \(bars) is not accepted; expected a whole number of bars, 1…100000")
        }
        return count
    }

    /// The request these flags describe.
    func request() throws -> RunRequest {
        var overrides = Overrides()
        overrides.flags = settings.given
        overrides.isDry = dry
        overrides.bars = try barCount()
        overrides.assignments = try fieldAssignments()
        var request = RunRequest(preset: preset, duration: try seconds() ?? (live ? Limits.duration.upperBound : 60),
                                 overrides: overrides, isQuiet: quiet)
        request.files = outputs.files
        request.sampleRate = Double(outputs.sampleRateValue)
        request.tail = outputs.tailValue
        request.soundFont = outputs.soundfont
        request.isLive = live
        request.audioDriver = audioDriver
        request.environment = ProcessInfoLite.environment
        request.video = try videoFlags.request()
        request.mix.stemsDirectory = outputs.stems
        request.midiOut = midiOut.flatMap(MIDIOutKind.init(rawValue:))
        request.connections = connect
        request.clockConnections = connectClock
        request.audioConnections = connectAudio
        request.sendsClock = clockOut
        request.oscOut = oscOut
        request.midiIn = midiIn
        request.clockIn = clockIn
        request.transport = transport
        request.joinsLink = link
        request.oscIn = oscIn
        if live { request.replay = ReplayRecord(arguments: replayArguments(), presetName: preset, seed: 0, timestep: 0) }
        return request
    }

    func run() throws {
        try perform(request())
    }

    /// Runs `request`, turning errors into exit statuses. FluidSynth's warnings follow the
    /// run (before its error, if any) unless `--quiet`.
    func perform(_ request: RunRequest) throws {
        defer {
            let warnings = SoundWarnings.drainLines()
            if !request.isQuiet && !warnings.isEmpty {
                TerminalOutput.standardError.write(warnings.map { $0 + "\n" }.joined())
                TerminalOutput.standardError.flush()
            }
        }
        let summary: Summary
        do {
            summary = try SessionRunner.run(request, stop: stopSignal)
        } catch {
            throw fail(error)
        }
        if summary.wasInterrupted {
            let signal = stopSignal.raised
            throw ExitCode(128 + signal)
        }
    }
}

/// The absolute path a file name refers to (its directory resolved through symbolic links),
/// so that a replay finds the same preset file from another directory.
func canonicalPath(_ path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard let base = realPath(directory) else { return path }
    let full = (base == "/" ? "" : base) + "/" + name
    return realPath(full) ?? full
}

/// `realpath(3)` of a path's exact bytes (`PathBytes`), or nil.
private func realPath(_ path: String) -> String? {
    guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return PathBytes.string(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
}
