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
        do {
            if let path = request.midiPath {
                sinks.append(try MIDIRecorder(path: path, configuration: configuration, sound: SoundSettings(configuration.preset.sound)))
            }
            if let path = request.eventsPath {
                sinks.append(try EventLogWriter(path: path))
            }
        } catch {
            for sink in sinks { sink.abandon() }
            throw error
        }
        let writesFiles = !sinks.isEmpty
        if !writesFiles && !request.isQuiet {
            sinks.append(TextPrinter(output: standardOutput, configuration: configuration))
        }
        let showsProgress = !request.isQuiet && standardError.isTerminal && writesFiles
        let progress: ((Double) -> Void)? = showsProgress ? { fraction in
            let percent = Int(fraction * 100)
            standardError.write("\r  simulating \(Format.fixed(fraction * configuration.duration, decimals: 1)) / \(Format.fixed(configuration.duration, decimals: 1)) s  [\(percent)%]")
            standardError.flush()
        } : nil
        let simulator = Simulator(configuration: configuration)
        let summary = try simulator.run(into: sinks, stop: stop, progress: progress)
        if showsProgress {
            standardError.write("\r\u{1B}[K")
            standardError.flush()
        }
        if !request.isQuiet {
            var outputs: [String] = []
            if let path = request.midiPath { outputs.append(path) }
            if let path = request.eventsPath { outputs.append(path) }
            standardOutput.write(describe(summary, configuration: configuration, outputs: outputs) + "\n")
            standardOutput.flush()
        }
        return summary
    }

    /// The one-line summary.
    public static func describe(_ summary: Summary, configuration: Configuration, outputs: [String]) -> String {
        var text = summary.wasInterrupted ? "interrupted at " : ""
        text += "\(Format.fixed(summary.duration, decimals: 1)) s of \(configuration.preset.name) (seed \(configuration.seed), \(configuration.preset.key.description)): "
        text += "\(summary.bassNotes) bass notes, \(summary.keyNotes) key notes, \(summary.kicks) kicks, \(summary.drops) drops, \(summary.escapes) escapes"
        if !outputs.isEmpty { text += "; wrote " + outputs.joined(separator: ", ") }
        return text
    }
}
