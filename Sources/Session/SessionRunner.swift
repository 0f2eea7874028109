import Sound
import Performance

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
    /// Process environment (for CLUMSY_SOUNDFONT).
    public var environment: [String: String] = [:]
    /// Stems, loudness, true peak and bit depth of an audio render.
    public var mix = MixRequest()

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
        var audioSink: AudioFileSink?
        var stemPaths: [String] = []
        do throws(SessionError) {
            if let path = request.midiPath {
                sinks.append(try MIDIRecorder(path: path, configuration: configuration, sound: configuration.sound))
            }
            if let path = request.eventsPath {
                sinks.append(try EventLogWriter(path: path))
            }
            if request.audioPath != nil || request.isLive {
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
                    var mix = request.mix
                    if let text = request.environment["CLUMSY_THREADS"], let threads = Int(text), (1...64).contains(threads) {
                        mix.threads = threads
                    }
                    let sink = try AudioFileSink(path: path, samplerConfiguration: samplerConfiguration, session: configuration,
                                                 mix: mix)
                    sinks.append(sink)
                    audioSink = sink
                    // One MIDI file per voice beside the audio stems.
                    if let directory = request.mix.stemsDirectory {
                        for voice in Voice.allCases {
                            let path = (directory.hasSuffix("/") ? directory : directory + "/") + voice.name.lowercased() + ".mid"
                            sinks.append(try MIDIRecorder(path: path, configuration: configuration, sound: configuration.sound, only: voice))
                            stemPaths.append(path)
                        }
                    }
                }
                if request.isLive {
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
        let pacer = request.isLive ? WallClockPacer() : nil
        let summary = try simulator.run(into: sinks, stop: stop, progress: request.isLive ? nil : progress,
                                        pacer: pacer.map { p in { time in p.wait(until: time) } })
        if showsProgress {
            standardError.write("\r\u{1B}[K")
            standardError.flush()
        }
        if !request.isQuiet {
            var outputs: [String] = []
            if let path = request.midiPath { outputs.append(path) }
            if let path = request.eventsPath { outputs.append(path) }
            if let path = request.audioPath { outputs.append(path) }
            if let directory = request.mix.stemsDirectory, let audioSink {
                let format = AudioFileFormat(path: audioSink.path) ?? .wav
                let names = MixPlan(configuration).parts.map { $0.stemFileName(format) } + stemPaths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
                outputs.append("stems " + names.joined(separator: ", ") + " in " + directory)
            }
            var text = describe(summary, configuration: configuration, outputs: outputs)
            if let report = audioSink?.report { text += "; " + report.description }
            standardOutput.write(text + "\n")
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
