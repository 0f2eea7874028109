// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import EventLog
import FileOutput
import Live
import Performance
import Sinks
import Sound
import Text
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// What a user asked `clumsy run` to do, already parsed.
public struct RunRequest: Sendable {
    /// A bundled preset name or a preset file path.
    public var preset: String
    /// Simulated seconds.
    public var duration: Double
    /// Values overriding the preset's.
    public var overrides: Overrides
    /// The files to write, each under the flag that names it ("--midi": "session.mid"); every
    /// file output of `SessionOutputs` reads its path here.
    public var files: [String: String] = [:]
    /// MIDI file to write, if any (`files["--midi"]`).
    public var midiPath: String? {
        get { files["--midi"] }
        set { files["--midi"] = newValue }
    }
    /// Event log to write, if any (`files["--events"]`).
    public var eventsPath: String? {
        get { files["--events"] }
        set { files["--events"] = newValue }
    }
    /// Print nothing but errors.
    public var isQuiet: Bool
    /// Audio file to render (.wav, .flac, .ogg), if any (`files["--audio"]`).
    public var audioPath: String? {
        get { files["--audio"] }
        set { files["--audio"] = newValue }
    }
    /// Output sample rate, Hz.
    public var sampleRate: Double = 44_100
    /// Seconds of sound after the session's end (`--tail`); nil: as long as the effects need.
    public var tail: Double?
    /// SoundFont given with --soundfont.
    public var soundFont: String?
    /// Play live through an audio driver.
    public var isLive = false
    /// Audio driver for live play (nil = FluidSynth's default).
    public var audioDriver: String?
    /// Process environment (for CLUMSY_SOUNDFONT, JACK_DEFAULT_SERVER, and PATH to find ffmpeg).
    public var environment: [String: String] = [:]
    /// Video to render (with the session's sound), if any.
    public var video: VideoRequest?
    /// Stems, loudness, true peak and bit depth of an audio render.
    public var mix = MixRequest()
    /// `--midi-out`: live MIDI ports (with `--live`). The internal synthesizer then plays only
    /// when `--audio-driver` is given too.
    public var midiOut: MIDIOutKind?
    /// `--connect`: JACK MIDI inputs to connect every voice's port to.
    public var connections: [String] = []
    /// `--connect-clock`: JACK MIDI inputs to connect the clock port to.
    public var clockConnections: [String] = []
    /// `--connect-audio`: JACK audio inputs for the live synthesizer's left and right (one
    /// takes both; `none` leaves them unconnected); empty: the system's playback ports.
    public var audioConnections: [String] = []
    /// `--clock-out`: a `clock` port with MIDI clock, Start and Stop.
    public var sendsClock = false
    /// `--osc-out host:port`.
    public var oscOut: String?
    /// `--clock-in jack[:port]`: follow a MIDI clock master.
    public var clockIn: String?
    /// `--transport jack`: follow JACK transport.
    public var transport: String?
    /// `--link`: join an Ableton Link session.
    public var joinsLink = false
    /// `--midi-in jack`: a controller steers the session as the plugin's MIDI in does.
    public var midiIn: String?
    /// `--osc-in [addr:]port`.
    public var oscIn: String?
    /// For live runs: what the event log's `session` line records so that the run can be replayed.
    public var replay: ReplayRecord?
    /// The log whose controls are replayed at their steps (`clumsy replay`), read as they come.
    public var replayedControls: ReplayLog?
    /// Other files the session reads (the log `clumsy replay` replays): no output may be one.
    public var inputs: [OutputCheck.Named] = []

    /// True unless live MIDI ports take the notes instead (`--midi-out` without `--audio-driver`).
    public var playsInternalSound: Bool { midiOut == nil || audioDriver != nil }

    /// True when another flag asks for a JACK server: `--midi-in jack`, `--clock-in jack[:port]`
    /// or `--transport jack`. Without `--audio-driver`, the live synthesizer then plays through
    /// JACK when a server answers (`LiveSoundOutput`). (`--midi-out` without `--audio-driver`
    /// silences the synthesizer, so it never asks this.)
    public var asksForJack: Bool {
        midiIn == "jack" || transport == "jack" || clockIn.map { !ClockInOutput.isALSA($0) } == true
    }

    /// With `--live --audio-driver file`: the file the driver plays into in real time, --audio's
    /// (default clumsy-live.wav). One sampler both plays and writes it.
    public var liveFile: String? { isLive && audioDriver == "file" ? (audioPath ?? "clumsy-live.wav") : nil }

    /// True when an audio file is rendered offline (`--audio` without `--live`): what `--stems`,
    /// `--loudness`, `--true-peak` and `--bit-depth` apply to.
    public var rendersAudioFile: Bool { audioPath != nil && !isLive }

    /// Creates a request.
    public init(preset: String = "default", duration: Double = 60, overrides: Overrides = Overrides(),
                midiPath: String? = nil, eventsPath: String? = nil, isQuiet: Bool = false) {
        self.preset = preset
        self.duration = duration
        self.overrides = overrides
        self.isQuiet = isQuiet
        self.midiPath = midiPath
        self.eventsPath = eventsPath
    }
}

/// Runs a session end to end: preset → configuration → outputs (`SessionOutputs`) → simulation → summary.
public enum SessionRunner {
    /// What is said of an output on standard output when standard output is closed.
    public static let standardOutputClosed = "cannot write to standard output: it is closed"

    /// Validates everything, opens every output (so bad paths fail before simulating),
    /// runs, and returns the summary. Output files exist only if the run succeeded or was
    /// interrupted (then they hold everything up to the interruption).
    public static func run(_ request: RunRequest, stop: StopSignal?,
                           standardOutput: TerminalOutput = .standardOutput,
                           standardError: TerminalOutput = .standardError) throws(SessionError) -> Summary {
        // Standard output closed at the start (`>&-`; reopened on /dev/full so that no file
        // takes its number): an output there is refused as that, not as the full disk its
        // writes would meet.
        if standardOutput.failure == EBADF, request.files.values.contains(where: StandardOutputName.isStandardOutput) {
            throw .io(standardOutputClosed)
        }
        // The preset is read and checked before any server is reached; following JACK
        // transport, the timebase master's tempo and meter are the session's, so the session is
        // resolved after the transport is open.
        _ = try PresetFiles.locate(request.preset)
        var request = request
        let transport = try TransportOutput.open(&request)
        defer { transport?.close() }
        let plan = try SessionPlan.resolve(preset: request.preset, overrides: request.overrides, duration: request.duration)
        let outputs = SessionOutputs.requested(request)
        let wiring = OutputWiring()
        wiring.transport = transport
        if let transport { wiring.failsWith { transport.failure } }
        var run = OutputRun(request: request, plan: plan, soundFont: nil, stop: stop,
                            standardOutput: standardOutput, standardError: standardError)
        transport?.follow(run.plan)
        for output in outputs { try output.prepare(run, wiring) }
        if outputs.contains(where: { $0.needsSound(request) }) {
            run.soundFont = try locateSoundFont(request, plan: run.plan)
            if let soundFont = run.soundFont { try checkTones(run.plan, soundFont: soundFont) }
        }
        try checkOutputs(outputs, run)
        if let soundFont = run.soundFont {
            wiring.samplerConfiguration = SamplerFactory.configuration(
                soundFont: soundFont, sampleRate: request.sampleRate,
                polyphony: run.plan.isCrowded ? 128 : 256, sound: run.plan.sound, tail: request.tail)
            wiring.mix = request.mix
            if let text = request.environment["CLUMSY_THREADS"], let threads = Int(text), (1...64).contains(threads) {
                wiring.mix.threads = threads
            }
        }
        defer { wiring.closeInputs() }
        do throws(SessionError) {
            for output in outputs { try output.open(run, wiring) }
        } catch {
            wiring.abandon()
            throw error
        }
        let summary = try simulate(run, wiring)
        if !request.isQuiet {
            var text = describe(summary, plan: run.plan, outputs: outputs.flatMap { $0.summary(run, wiring) })
            if let report = wiring.audio?.report { text += "; " + report.description }
            // With an output on standard output (`--midi -`), the words go to standard error.
            let words = request.files.values.contains(where: StandardOutputName.isStandardOutput) ? standardError : standardOutput
            words.write(text + "\n")
            words.flush()
        }
        return summary
    }

    /// Runs the simulation into the opened outputs: a progress line on a terminal while files
    /// are written, the controls (replayed, live MIDI, OSC), and the pace of a live run.
    private static func simulate(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) -> Summary {
        let request = run.request
        let showsProgress = !request.isQuiet && run.standardError.isTerminal && run.writesFiles
        let line = showsProgress ? ProgressLine(output: run.standardError, total: run.plan.duration, verb: "simulating") : nil
        let progress: ((Double) -> Void)? = line.map { line in { fraction in line.show(fraction) } }
        let simulator = Simulator(plan: run.plan)
        // A replayed log holds the scenes' controls among its own: it alone applies them.
        simulator.playsScenes = request.replayedControls == nil
        simulator.observer = wiring.video
        if let line {
            wiring.audio?.onStage = { line.stage($0) }
            wiring.video?.onFinishing = { line.stage("finishing the video: the sound's tail, then muxing") }
        }
        // A replayed log's controls, the outputs' (table order), then a master's (a MIDI clock or a
        // Link session; JACK transport plays in takes, below).
        let replayed = try request.replayedControls?.controls()
        let master = wiring.master
        let controlSources: [ControlSource] = (replayed.map { [$0] } ?? []) + wiring.controls + (master.map { [$0] } ?? [])
        let controls: ControlSource? = controlSources.isEmpty ? nil
            : controlSources.count == 1 ? controlSources[0] : ControlSources(controlSources)
        let pace: ((Double) -> Void)?
        if let liveMIDI = wiring.liveMIDI, request.isLive {
            pace = { time in liveMIDI.pace(until: time) }   // JACK: the server's frame time (or the master's clock)
        } else if let master {
            let stop = run.stop
            pace = { time in master.wait(until: time) { stop?.isRaised == true } }
        } else if request.isLive {
            let pacer = WallClockPacer()
            pace = { time in pacer.wait(until: time) }
        } else {
            pace = nil
        }
        if let transport = wiring.transport {
            let live = wiring.liveMIDI.map { sink in { (time: Double) in sink.pace(until: time) } }
            let summary = try TransportTakes.run(run, sync: transport, sinks: wiring.sinks, controls: controlSources,
                                                 pace: live ?? { time in transport.wait(until: time) { run.stop?.isRaised == true } })
            wiring.closeInputs()
            if let failure = wiring.failure { throw failure }
            return summary
        }
        // Following a master, nothing sounds before it starts (at its next bar line).
        master?.wait(until: 0) { run.stop?.isRaised == true }
        let summary = try simulator.run(into: wiring.sinks, stop: run.stop, progress: request.isLive ? nil : progress,
                                        pacer: pace, controls: controls)
        wiring.closeInputs()
        if let failure = wiring.failure { throw failure }
        if let failure = replayed?.failure { throw failure }
        line?.clear()
        return summary
    }

    /// The SoundFont, when sound is asked for.
    private static func locateSoundFont(_ request: RunRequest, plan: SessionPlan) throws(SessionError) -> String? {
        do throws(SoundError) {
            let path = try SoundFontLocator.resolve(explicit: request.soundFont, environment: request.environment,
                                                    preset: plan.sound.soundFont)
            try SoundFontLocator.check(path)
            return path
        } catch {
            throw SessionError(error)
        }
    }

    /// Refuses a voice whose tone is a `bank:program` the SoundFont lacks (FluidSynth would
    /// keep the channel's old preset and play the wrong instrument without a word).
    static func checkTones(_ plan: SessionPlan, soundFont: String) throws(SessionError) {
        let given = plan.voices.voices.filter { Tone.soundFontPreset($0.tone.name) != nil }
        guard !given.isEmpty else { return }
        let presets: [SoundFontPreset]
        do { presets = try SoundFontPresets.read(soundFont) } catch { throw SessionError(error) }
        for voice in given where !presets.contains(where: { $0.bank == voice.tone.bank && $0.program == voice.tone.program }) {
            let banks = Dictionary(grouping: presets, by: \.bank).sorted { $0.key < $1.key }
                .map { "\($0.key) (\(SessionRunner.counted($0.value.count, "preset")))" }.joined(separator: ", ")
            throw .usage("the \(voice.name) voice's tone \(voice.tone.name): the SoundFont \(Quote.text(soundFont)) has no preset at "
                + "bank \(voice.tone.bank), program \(voice.tone.program); its banks: \(banks). "
                + "clumsy tones --soundfont \(Quote.text(soundFont)) lists them")
        }
    }

    /// Refuses outputs that would overwrite an input or each other (`OutputCheck`: every
    /// output's paths, in table order), then each output's own checks (the audio's disk budget),
    /// before anything runs.
    private static func checkOutputs(_ outputs: [any SessionOutput], _ run: OutputRun) throws(SessionError) {
        var paths: [OutputCheck.Named] = []
        for output in outputs { paths += try output.paths(run) }
        var inputs: [OutputCheck.Named] = [("the preset", run.plan.source)]
        if let soundFont = run.soundFont { inputs.append(("the SoundFont", soundFont)) }
        inputs += run.request.inputs
        try OutputCheck.verify(outputs: paths, inputs: inputs)
        for output in outputs { try output.verify(run) }
    }

    /// "1 kick", "0 kicks", "2 kicks".
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The one-line summary.
    public static func describe(_ summary: Summary, plan: SessionPlan, outputs: [String]) -> String {
        var text = summary.wasInterrupted ? "interrupted at " : ""
        text += "\(Format.fixed(summary.duration, decimals: summary.duration < 10 ? 3 : 1)) s of \(Quote.text(plan.name)) (seed \(plan.seed), \(plan.key.description)): "
        // One count per voice, in table order: "1 bass note, 300 key notes, 40 drum notes".
        for (index, voice) in plan.voices.voices.enumerated() {
            let name = voice.source == .pianoBalls ? "key" : voice.source == .percussion ? "drum" : voice.logName
            text += counted(summary.notes[index], "\(name) note") + ", "
        }
        text += [counted(summary.kicks, "kick"), counted(summary.drops, "drop"), counted(summary.escapes, "escape")].joined(separator: ", ")
        if let ending = summary.ending { text += "; " + ending.description }
        if !outputs.isEmpty { text += "; wrote " + outputs.map { Quote.text($0, limit: 2 * Quote.defaultLimit) }.joined(separator: ", ") }
        return text
    }
}
