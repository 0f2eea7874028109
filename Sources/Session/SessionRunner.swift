import FileOutput
import Sound
import Performance
import Engine
import Presets

/// What a user asked `clumsy run` to do, already parsed.
public struct RunRequest: Sendable {
    /// A bundled preset name or a preset file path.
    public var preset: String
    /// Simulated seconds.
    public var duration: Double
    /// Values overriding the preset's.
    public var overrides: Overrides
    /// MIDI file to write, if any.
    public var midiPath: String?
    /// Event log to write, if any.
    public var eventsPath: String?
    /// Print nothing but errors.
    public var isQuiet: Bool
    /// Audio file to render (.wav, .flac, .ogg), if any.
    public var audioPath: String?
    /// Output sample rate, Hz.
    public var sampleRate: Double = 44_100
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
    /// `--connect`: JACK MIDI inputs to connect every port to.
    public var connections: [String] = []
    /// `--clock-out`: a `clock` port with MIDI clock, Start and Stop.
    public var sendsClock = false
    /// `--osc-out host:port`.
    public var oscOut: String?
    /// `--osc-in [addr:]port`.
    public var oscIn: String?
    /// For live runs: what the event log's `session` line records so that the run can be replayed.
    public var replay: ReplayRecord?
    /// Controls replayed at their steps (`clumsy replay`).
    public var replayedControls: [TimedControl]?
    /// Other files the session reads (the log `clumsy replay` replays): no output may be one.
    public var inputs: [OutputCheck.Named] = []

    /// True unless live MIDI ports take the notes instead (`--midi-out` without `--audio-driver`).
    public var playsInternalSound: Bool { midiOut == nil || audioDriver != nil }

    /// Creates a request.
    public init(preset: String = "default", duration: Double = 60, overrides: Overrides = Overrides(),
                midiPath: String? = nil, eventsPath: String? = nil, isQuiet: Bool = false) {
        self.preset = preset
        self.duration = duration
        self.overrides = overrides
        self.midiPath = midiPath
        self.eventsPath = eventsPath
        self.isQuiet = isQuiet
    }
}

/// Runs a session end to end: preset → configuration → sinks → simulation → summary.
public enum SessionRunner {
    /// Validates everything, opens every output (so bad paths fail before simulating),
    /// runs, and returns the summary. Output files exist only if the run succeeded or was
    /// interrupted (then they hold everything up to the interruption).
    public static func run(_ request: RunRequest, stop: StopSignal?,
                           standardOutput: TerminalOutput = .standardOutput,
                           standardError: TerminalOutput = .standardError) throws(SessionError) -> Summary {
        let presetPath = try PresetLibrary.locate(request.preset)
        let preset = try PresetLibrary.load(presetPath)
        let configuration = try Configuration(preset: preset, overrides: request.overrides, duration: request.duration)
        let plan = SessionPlan(configuration: configuration)
        let ffmpeg = try request.video.map { (video) throws(SessionError) -> String in try VideoSink.prepare(video, isLive: request.isLive, environment: request.environment) }
        let soundFont = try locateSoundFont(request, configuration: configuration)
        // The file driver plays in real time into --audio's file: one sampler does both.
        let liveFile = request.isLive && request.audioDriver == "file" ? (request.audioPath ?? "clumsy-live.wav") : nil
        // The file driver's own default name is never written over unasked.
        if let liveFile, request.audioPath == nil, FileIdentity(path: liveFile) != nil {
            throw .usage("--audio-driver file writes \(liveFile) when --audio is not given, and \(liveFile) exists here: "
                + "name the output with --audio (a file named there is replaced)")
        }
        try checkOutputs(request, presetPath: presetPath, soundFont: soundFont, liveFile: liveFile, configuration: configuration)
        var sinks: [SessionSink] = []
        var videoSink: VideoSink?
        var audioSink: AudioFileSink?
        var stemPaths: [String] = []
        var liveMIDI: LiveMIDISink?
        var oscIn: OSCControlSource?
        defer { oscIn?.close() }
        do throws(SessionError) {
            if let path = request.midiPath {
                sinks.append(try MIDIRecorder(path: path, plan: plan))
            }
            if let path = request.eventsPath {
                var replay = request.replay
                replay?.seed = plan.seed
                replay?.timestep = plan.world.timestep
                replay?.presetName = plan.name
                if let arguments = replay?.arguments, !arguments.contains("--seed") {
                    replay?.arguments += ["--seed", String(plan.seed)]
                }
                if let arguments = replay?.arguments {
                    replay?.plan = try PlanDigest.of(presetPath: presetPath, arguments: arguments, timestep: plan.world.timestep)
                }
                sinks.append(try EventLogWriter(path: path, voices: plan.voices, replay: replay))
            }
            if let kind = request.midiOut {
                let sink = try LiveMIDISink.open(kind, clock: request.sendsClock, connections: request.connections,
                                                 plan: plan, environment: request.environment, stop: stop)
                liveMIDI = sink
                sinks.append(sink)
            }
            if let target = request.oscOut {
                sinks.append(try OSCOutSink(target: target, plan: plan))
            }
            if let listen = request.oscIn {
                oscIn = try OSCControlSource(listen: listen, plan: plan)
            }
            if let soundFont {
                let samplerConfiguration = SamplerFactory.configuration(
                    soundFont: soundFont, sampleRate: request.sampleRate,
                    polyphony: plan.isCrowded ? 128 : 256, sound: plan.sound)
                var mix = request.mix
                if let text = request.environment["CLUMSY_THREADS"], let threads = Int(text), (1...64).contains(threads) {
                    mix.threads = threads
                }
                if let path = request.audioPath, liveFile == nil {
                    let sink = try AudioFileSink(path: path, samplerConfiguration: samplerConfiguration, session: plan,
                                                 mix: mix, stop: stop)
                    sinks.append(sink)
                    audioSink = sink
                    // One MIDI file per voice beside the audio stems.
                    for (index, path) in stemMIDIPaths(request, plan: plan).enumerated() {
                        sinks.append(try MIDIRecorder(path: path, plan: plan, only: VoiceID(rawValue: index)))
                        stemPaths.append(path)
                    }
                }
                if let video = request.video, let ffmpeg {
                    let files = try VideoFiles(path: video.path)
                    // The video's sound is the --audio file's render, or a temporary WAV (same mix, no stems) beside the video.
                    var sound = audioSink
                    if sound == nil {
                        var temporaryMix = mix
                        temporaryMix.stemsDirectory = nil
                        let sink = try AudioFileSink(path: files.soundPath(), format: .wav, samplerConfiguration: samplerConfiguration,
                                                     session: plan, mix: temporaryMix, stop: stop)
                        sinks.append(sink)
                        sound = sink
                    }
                    let sink = try VideoSink(request: video, files: files, plan: plan, ffmpeg: ffmpeg, audioPath: sound!.path,
                                             removesAudio: audioSink == nil, tail: sound!.tailDuration, stop: stop)
                    sinks.append(sink)
                    videoSink = sink
                }
                if request.isLive && request.playsInternalSound {
                    sinks.append(try LiveSink(samplerConfiguration: samplerConfiguration, session: plan,
                                              driver: request.audioDriver, fileName: liveFile, stop: stop))
                }
            }
        } catch {
            for sink in sinks { sink.abandon() }
            throw error
        }
        let writesFiles = request.midiPath != nil || request.eventsPath != nil || request.audioPath != nil || request.video != nil
        if !writesFiles && !request.isQuiet && !request.isLive {
            sinks.append(TextPrinter(output: standardOutput, plan: plan))
        }
        if request.isLive && !request.isQuiet && standardError.isTerminal {
            sinks.append(LiveStatus(output: standardError, plan: plan))
        }
        let showsProgress = !request.isQuiet && standardError.isTerminal && writesFiles
        let line = showsProgress ? ProgressLine(output: standardError, total: configuration.duration, verb: "simulating") : nil
        let progress: ((Double) -> Void)? = line.map { line in { fraction in line.show(fraction) } }
        let simulator = Simulator(plan: plan)
        simulator.observer = videoSink
        if let line {
            for sink in sinks { (sink as? AudioFileSink)?.onStage = { line.stage($0) } }
            videoSink?.onFinishing = { line.stage("finishing the video: the sound's tail, then muxing") }
        }
        var controlSources: [ControlSource] = []
        if let replayed = request.replayedControls { controlSources.append(ReplayControls(replayed)) }
        if let liveMIDI { controlSources.append(liveMIDI) }
        if let oscIn { controlSources.append(oscIn) }
        let controls: ControlSource? = controlSources.isEmpty ? nil
            : controlSources.count == 1 ? controlSources[0] : ControlSources(controlSources)
        let pace: ((Double) -> Void)?
        if let liveMIDI, request.isLive {
            pace = { time in liveMIDI.pace(until: time) }   // JACK: the server's frame time
        } else if request.isLive {
            let pacer = WallClockPacer()
            pace = { time in pacer.wait(until: time) }
        } else {
            pace = nil
        }
        let summary = try simulator.run(into: sinks, stop: stop, progress: request.isLive ? nil : progress,
                                        pacer: pace, controls: controls)
        oscIn?.close()
        if let failure = liveMIDI?.failure { throw failure }
        line?.clear()
        if !request.isQuiet {
            var outputs: [String] = []
            if let path = request.midiPath { outputs.append(path) }
            if let path = request.eventsPath { outputs.append(path) }
            if let path = request.audioPath ?? liveFile { outputs.append(path) }
            if let video = request.video { outputs.append(video.path) }
            if let directory = request.mix.stemsDirectory, let audioSink {
                let format = AudioFileFormat(path: audioSink.path) ?? .wav
                let names = MixPlan(plan).parts.map { $0.stemFileName(format) } + stemPaths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
                outputs.append("stems " + names.joined(separator: ", ") + " in " + directory)
            }
            var text = describe(summary, plan: plan, outputs: outputs)
            if let report = audioSink?.report { text += "; " + report.description }
            standardOutput.write(text + "\n")
            standardOutput.flush()
        }
        return summary
    }

    /// The stems' MIDI files, one per voice in table order (none without `--stems` or an audio render).
    static func stemMIDIPaths(_ request: RunRequest, plan: SessionPlan) -> [String] {
        guard let directory = request.mix.stemsDirectory, request.audioPath != nil, !request.isLive else { return [] }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return plan.voices.voices.map { prefix + $0.logName + ".mid" }
    }

    /// The SoundFont, when sound is asked for.
    private static func locateSoundFont(_ request: RunRequest, configuration: Configuration) throws(SessionError) -> String? {
        guard request.audioPath != nil || (request.isLive && request.playsInternalSound) || request.video != nil else { return nil }
        do throws(SoundError) {
            let path = try SoundFontLocator.resolve(explicit: request.soundFont, environment: request.environment,
                                                    preset: configuration.preset.sound.soundFont)
            try SoundFontLocator.check(path)
            return path
        } catch {
            throw SessionError(error)
        }
    }

    /// Refuses outputs that would overwrite an input or each other (`OutputCheck`), and
    /// audio that cannot fit (`AudioBudget`), before anything runs.
    private static func checkOutputs(_ request: RunRequest, presetPath: String, soundFont: String?, liveFile: String?,
                                     configuration: Configuration) throws(SessionError) {
        var outputs: [OutputCheck.Named] = []
        if let path = request.midiPath { outputs.append(("--midi", path)) }
        if let path = request.eventsPath { outputs.append(("--events", path)) }
        if liveFile == nil, let audio = request.audioPath, let directory = request.mix.stemsDirectory,
           let format = AudioFileFormat(path: audio) {
            let plan = SessionPlan(configuration: configuration)
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            for path in stemMIDIPaths(request, plan: plan) { outputs.append(("--stems", path)) }
            for voice in plan.voices.voices { outputs.append(("--stems", prefix + voice.logName + "." + format.fileExtension)) }
        }
        if let path = liveFile { outputs.append((request.audioPath == nil ? "the live file driver's default output" : "--audio", path)) }
        else if let path = request.audioPath { outputs.append(("--audio", path)) }
        if let video = request.video { outputs.append(("--video", video.path)) }
        var inputs: [OutputCheck.Named] = [("the preset", presetPath)]
        if let soundFont { inputs.append(("the SoundFont", soundFont)) }
        inputs += request.inputs
        try OutputCheck.verify(outputs: outputs, inputs: inputs)
        if let path = request.audioPath, liveFile == nil, let soundFont {
            let tail = SamplerFactory.configuration(soundFont: soundFont, sampleRate: request.sampleRate, polyphony: 256,
                                                    sound: configuration.sound).tailDuration
            try AudioBudget.check(path: path, seconds: configuration.duration + tail, rate: request.sampleRate,
                                  bytesPerSample: configuration.sound.bitDepth.bytesPerSample)
        }
    }

    /// The one-line summary.
    public static func describe(_ summary: Summary, plan: SessionPlan, outputs: [String]) -> String {
        var text = summary.wasInterrupted ? "interrupted at " : ""
        text += "\(Format.fixed(summary.duration, decimals: summary.duration < 10 ? 3 : 1)) s of \(Quote.text(plan.name)) (seed \(plan.seed), \(plan.key.description)): "
        // One count per voice, in table order: "12 bass notes, 300 keys notes, 40 drums notes".
        for (index, voice) in plan.voices.voices.enumerated() {
            let name = voice.source == .pianoBalls ? "key" : voice.logName
            text += "\(summary.notes[index]) \(name) notes, "
        }
        text += "\(summary.kicks) kicks, \(summary.drops) drops, \(summary.escapes) escapes"
        if !outputs.isEmpty { text += "; wrote " + outputs.map { Quote.text($0, limit: 2 * Quote.defaultLimit) }.joined(separator: ", ") }
        return text
    }
}
