import Sound

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
    /// Process environment (for CLUMSY_SOUNDFONT, JACK_DEFAULT_SERVER).
    public var environment: [String: String] = [:]
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
        let preset = try PresetLibrary.load(request.preset)
        let configuration = try Configuration(preset: preset, overrides: request.overrides, duration: request.duration)
        var sinks: [SessionSink] = []
        var liveMIDI: LiveMIDISink?
        var oscIn: OSCControlSource?
        defer { oscIn?.close() }
        do throws(SessionError) {
            if let path = request.midiPath {
                sinks.append(try MIDIRecorder(path: path, configuration: configuration, sound: configuration.sound))
            }
            if let path = request.eventsPath {
                var replay = request.replay
                replay?.seed = configuration.seed
                replay?.timestep = configuration.preset.timestep
                replay?.presetName = configuration.preset.name
                if let arguments = replay?.arguments, !arguments.contains("--seed") {
                    replay?.arguments += ["--seed", String(configuration.seed)]
                }
                sinks.append(try EventLogWriter(path: path, replay: replay))
            }
            if let kind = request.midiOut {
                let sink = try LiveMIDISink.open(kind, clock: request.sendsClock, connections: request.connections,
                                                 configuration: configuration, environment: request.environment, stop: stop)
                liveMIDI = sink
                sinks.append(sink)
            }
            if let target = request.oscOut {
                sinks.append(try OSCOutSink(target: target, configuration: configuration))
            }
            if let listen = request.oscIn {
                oscIn = try OSCControlSource(listen: listen)
            }
            let internalSound = request.midiOut == nil || request.audioDriver != nil
            if request.audioPath != nil || (request.isLive && internalSound) {
                let soundFont: String
                do throws(SoundError) {
                    soundFont = try SoundFontLocator.resolve(explicit: request.soundFont, environment: request.environment,
                                                             preset: configuration.preset.sound.soundFont)
                } catch {
                    throw SessionError(error)
                }
                let samplerConfiguration = SamplerFactory.configuration(
                    soundFont: soundFont, sampleRate: request.sampleRate,
                    polyphony: configuration.isCrowded ? 128 : 256, sound: configuration.sound)
                // The file driver plays in real time into --audio's file: one sampler does both.
                let liveFile = request.isLive && request.audioDriver == "file" ? (request.audioPath ?? "clumsy-live.wav") : nil
                if let path = request.audioPath, liveFile == nil {
                    sinks.append(try AudioFileSink(path: path, samplerConfiguration: samplerConfiguration, session: configuration))
                }
                if request.isLive && internalSound {
                    sinks.append(try LiveSink(samplerConfiguration: samplerConfiguration, session: configuration,
                                              driver: request.audioDriver, fileName: liveFile, stop: stop))
                }
            }
        } catch {
            for sink in sinks { sink.abandon() }
            throw error
        }
        let writesFiles = request.midiPath != nil || request.eventsPath != nil || request.audioPath != nil
        if !writesFiles && !request.isQuiet && !request.isLive {
            sinks.append(TextPrinter(output: standardOutput, configuration: configuration))
        }
        let showsProgress = !request.isQuiet && standardError.isTerminal && writesFiles
        let progress: ((Double) -> Void)? = showsProgress ? { fraction in
            let percent = Int(fraction * 100 + 1e-6)
            standardError.write("\r  simulating \(Format.fixed(fraction * configuration.duration, decimals: 1)) / \(Format.fixed(configuration.duration, decimals: 1)) s  [\(percent)%]")
            standardError.flush()
        } : nil
        let simulator = Simulator(configuration: configuration)
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
        if showsProgress {
            standardError.write("\r\u{1B}[K")
            standardError.flush()
        }
        if !request.isQuiet {
            var outputs: [String] = []
            if let path = request.midiPath { outputs.append(path) }
            if let path = request.eventsPath { outputs.append(path) }
            if let path = request.audioPath { outputs.append(path) }
            standardOutput.write(describe(summary, configuration: configuration, outputs: outputs) + "\n")
            standardOutput.flush()
        }
        return summary
    }

    /// The one-line summary.
    public static func describe(_ summary: Summary, configuration: Configuration, outputs: [String]) -> String {
        var text = summary.wasInterrupted ? "interrupted at " : ""
        text += "\(Format.fixed(summary.duration, decimals: summary.duration < 10 ? 3 : 1)) s of \(configuration.preset.name) (seed \(configuration.seed), \(configuration.preset.key.description)): "
        text += "\(summary.bassNotes) bass notes, \(summary.keyNotes) key notes, \(summary.kicks) kicks, \(summary.drops) drops, \(summary.escapes) escapes"
        if !outputs.isEmpty { text += "; wrote " + outputs.joined(separator: ", ") }
        return text
    }
}
