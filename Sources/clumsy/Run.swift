import ArgumentParser
import Session
#if canImport(Glibc)
import Glibc
#endif

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a session and record it.",
        discussion: """
        With no --midi or --events, the performance is printed as readable lines, then a summary.
        Exit status: 0 ok, 64 bad flag, 65 bad preset, 66 unknown preset or unreadable file,
        69 no audio device, JACK server or ALSA sequencer, 73 output cannot be created,
        74 write error or the JACK server went away, 130/143 interrupted (files complete up to then).
        """)

    @Argument(help: "A bundled preset's name (see `clumsy presets`) or a path to a preset file.")
    var preset: String = "default"

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated seconds to run (\(Limits.text(Limits.duration)) s; default 60, or until Ctrl-C with --live).", valueName: "s"))
    var duration: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Random seed 0…18446744073709551615 (overrides the preset's): same seed, same session.", valueName: "n"))
    var seed: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Gravity on the piano balls in m/s² (\(Limits.text(Limits.gravity)); 9.81 = Earth).", valueName: "m/s²"))
    var gravity: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Bass ball speed in m/s (\(Limits.text(Limits.speed))).", valueName: "m/s"))
    var speed: Double?

    @Option(help: ArgumentHelp("Write a Standard MIDI File (format 1, tracks Bass and Keys).", valueName: "file.mid"))
    var midi: String?

    @Option(help: ArgumentHelp("Write the event log as JSON Lines.", valueName: "file.jsonl"))
    var events: String?

    @Option(help: ArgumentHelp("Render audio to a .wav, .flac or .ogg file through FluidSynth.", valueName: "file"))
    var audio: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Audio sample rate in Hz (\(Limits.text(Limits.sampleRate))).", valueName: "Hz"))
    var sampleRate: Double = 44_100

    @Option(help: ArgumentHelp("Keys tone (see `clumsy tones`), overriding the preset's.", valueName: "name"))
    var tone: String?

    @Option(help: ArgumentHelp("SoundFont file (.sf2/.sf3). Else $CLUMSY_SOUNDFONT, the preset's, then Debian's (FluidR3_GM first).", valueName: "file"))
    var soundfont: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Low-pass filter cutoff in Hz (\(Limits.text(Limits.cutoff))), or off.", valueName: "Hz|off"))
    var filter: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Low-pass resonance in dB (\(Limits.text(Limits.resonance))); needs the filter on.", valueName: "dB"))
    var resonance: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Delay time in seconds (\(Limits.text(Limits.delayTime))), or off.", valueName: "s|off"))
    var delay: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Delay feedback (\(Limits.text(Limits.feedback))); needs the delay on.", valueName: "x"))
    var feedback: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Delay wet mix (\(Limits.text(Limits.unit))); needs the delay on.", valueName: "x"))
    var delayMix: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Reverb level (\(Limits.text(Limits.unit))), or off.", valueName: "x|off"))
    var reverb: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Reverb room size (\(Limits.text(Limits.unit))); needs the reverb on.", valueName: "x"))
    var room: Double?

    @Flag(help: "Switch the filter, delay and reverb off.")
    var dry = false

    @Flag(help: "Play live through an audio driver, paced to the wall clock, until --duration or Ctrl-C.")
    var live = false

    @Option(help: ArgumentHelp("Audio driver for --live (FluidSynth's: pulseaudio, pipewire, alsa, jack, file, …). With `file`, sound goes to --audio's file (default clumsy-live.wav) in real time.", valueName: "name"))
    var audioDriver: String?

    @Option(help: ArgumentHelp("With --live: send each voice's notes to live MIDI ports, `jack` (client clumsy, ports clumsy:bass, clumsy:keys, …; paced by the JACK server's clock) or `alsa` (sequencer client Clumsy). The internal synthesizer then stays silent unless --audio-driver is given.", valueName: "jack|alsa"))
    var midiOut: String?

    @Option(help: ArgumentHelp("With --midi-out jack: connect every port to this JACK MIDI input (repeatable).", valueName: "port"))
    var connect: [String] = []

    @Flag(help: "With --midi-out: a `clock` port sending MIDI clock (24 per quarter note at the session tempo), Start at the first note, Stop at the end.")
    var clockOut = false

    @Option(help: ArgumentHelp("With --live: send every event as OSC (/clumsy/note, /clumsy/chord, /clumsy/hit, …) to host:port.", valueName: "host:port"))
    var oscOut: String?

    @Option(help: ArgumentHelp("With --live: accept OSC controls (/clumsy/gravity, /clumsy/speed, /clumsy/tempo, /clumsy/kick, /clumsy/drop) on UDP [addr:]port (address 127.0.0.1 unless given).", valueName: "[addr:]port"))
    var oscIn: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    /// The seed as a number (validated in `validate()`).
    var seedValue: UInt64? { seed.flatMap { UInt64($0) } }

    func validate() throws {
        if let seed, UInt64(seed) == nil {
            throw ValidationError("--seed \(seed) is not accepted; expected a whole number 0…\(UInt64.max)")
        }
        if let duration { try check("--duration", duration, Limits.duration, unit: "s") }
        try check("--sample-rate", sampleRate, Limits.sampleRate, unit: "Hz")
        for (flag, value) in [("--filter", filter), ("--delay", delay), ("--reverb", reverb)] {
            if let value, EffectSetting(value) == nil {
                throw ValidationError("\(flag) takes a number or off, not \(value)")
            }
        }
        if let value = filter.flatMap(EffectSetting.init), case .value(let hz) = value { try check("--filter", hz, Limits.cutoff, unit: "Hz") }
        if let value = delay.flatMap(EffectSetting.init), case .value(let s) = value { try check("--delay", s, Limits.delayTime, unit: "s") }
        if let value = reverb.flatMap(EffectSetting.init), case .value(let x) = value { try check("--reverb", x, Limits.unit, unit: "") }
        if let resonance { try check("--resonance", resonance, Limits.resonance, unit: "dB") }
        if let feedback { try check("--feedback", feedback, Limits.feedback, unit: "") }
        if let delayMix { try check("--delay-mix", delayMix, Limits.unit, unit: "") }
        if let room { try check("--room", room, Limits.unit, unit: "") }
        if let tone, Tone.keys(named: tone) == nil {
            throw ValidationError("--tone \(tone) is not a keys tone; accepted: \(ToneCatalog.keys.map(\.name).joined(separator: ", "))")
        }
        if audioDriver != nil && !live { throw ValidationError("--audio-driver only applies with --live") }
        if let audio, audio.isEmpty { throw ValidationError("--audio needs a file name") }
        if let audio, !(live && audioDriver == "file") {
            let lower = audio.lowercased()
            guard lower.hasSuffix(".wav") || lower.hasSuffix(".flac") || lower.hasSuffix(".ogg") else {
                throw ValidationError("--audio \(audio): the file name must end in .wav, .flac or .ogg")
            }
        }
        let outputs = [midi, events, audio].compactMap { $0 }
        if Set(outputs.map(canonicalPath)).count != outputs.count {
            throw ValidationError("--midi, --events and --audio must name different files")
        }
        if let gravity { try check("--gravity", gravity, Limits.gravity, unit: "m/s²") }
        if let speed { try check("--speed", speed, Limits.speed, unit: "m/s") }
        if let midi, midi.isEmpty { throw ValidationError("--midi needs a file name") }
        if let events, events.isEmpty { throw ValidationError("--events needs a file name") }
        if let midiOut, MIDIOutKind(rawValue: midiOut) == nil {
            throw ValidationError("--midi-out \(midiOut) is not accepted; expected jack or alsa")
        }
        for (flag, given) in [("--midi-out", midiOut != nil), ("--osc-out", oscOut != nil), ("--osc-in", oscIn != nil)] where given && !live {
            throw ValidationError("\(flag) only applies with --live")
        }
        if !connect.isEmpty && midiOut != "jack" { throw ValidationError("--connect only applies with --midi-out jack") }
        if clockOut && midiOut == nil { throw ValidationError("--clock-out needs --midi-out jack or alsa") }
        if connect.contains(where: \.isEmpty) { throw ValidationError("--connect needs a JACK port name, e.g. fluidsynth:midi_00") }
    }

    /// The `clumsy run` arguments that shape the notes and the MIDI file (not the outputs):
    /// what a live run's event log records so `clumsy replay` can run it again.
    func replayArguments() -> [String] {
        var arguments = [PresetLibrary.isPresetPath(preset) ? canonicalPath(preset) : preset]
        if let seed { arguments += ["--seed", seed] }
        let numbers: [(String, Double?)] = [("--gravity", gravity), ("--speed", speed), ("--resonance", resonance),
                                             ("--feedback", feedback), ("--delay-mix", delayMix), ("--room", room)]
        for case let (flag, value?) in numbers { arguments += [flag, "\(value)"] }
        let texts: [(String, String?)] = [("--tone", tone), ("--filter", filter), ("--delay", delay), ("--reverb", reverb)]
        for case let (flag, value?) in texts { arguments += [flag, value] }
        if dry { arguments.append("--dry") }
        return arguments
    }

    /// The request these flags describe.
    func request() -> RunRequest {
        var overrides = Overrides(seed: seedValue, gravity: gravity, speed: speed, keysTone: tone)
        overrides.filter = filter.flatMap(EffectSetting.init)
        overrides.resonance = resonance
        overrides.delay = delay.flatMap(EffectSetting.init)
        overrides.feedback = feedback
        overrides.delayMix = delayMix
        overrides.reverb = reverb.flatMap(EffectSetting.init)
        overrides.room = room
        overrides.isDry = dry
        var request = RunRequest(preset: preset, duration: duration ?? (live ? Limits.duration.upperBound : 60),
                                 overrides: overrides, midiPath: midi, eventsPath: events, isQuiet: quiet)
        request.audioPath = audio
        request.sampleRate = sampleRate
        request.soundFont = soundfont
        request.isLive = live
        request.audioDriver = audioDriver
        request.environment = ProcessInfoLite.environment
        request.midiOut = midiOut.flatMap(MIDIOutKind.init(rawValue:))
        request.connections = connect
        request.sendsClock = clockOut
        request.oscOut = oscOut
        request.oscIn = oscIn
        if live { request.replay = ReplayRecord(arguments: replayArguments(), presetName: preset, seed: 0, timestep: 0) }
        return request
    }

    func run() throws {
        installSignalHandlers()
        try perform(request())
    }

    /// Runs `request`, turning errors into exit statuses.
    func perform(_ request: RunRequest) throws {
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

/// Rejects NaN, infinities and values outside `range`, naming the flag and the range.
func check(_ flag: String, _ value: Double, _ range: ClosedRange<Double>, unit: String) throws {
    guard value.isFinite else {
        throw ValidationError("\(flag) must be a finite number in \(Limits.text(range, unit: unit)), not \(value)")
    }
    guard range.contains(value) else {
        throw ValidationError("\(flag) \(Format.plain(value)) is out of range; accepted: \(Limits.text(range, unit: unit))")
    }
}

/// SIGINT and SIGTERM ask the running session to stop at the next step. They are also
/// unblocked, in case the parent process started us with them blocked.
func installSignalHandlers() {
    let handler: @convention(c) (Int32) -> Void = { number in stopSignal.raise(number) }
    signal(SIGINT, handler)
    signal(SIGTERM, handler)
    signal(SIGPIPE, SIG_IGN)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    sigprocmask(SIG_UNBLOCK, &set, nil)
}

/// The absolute path a file name refers to (its directory resolved through symbolic links),
/// so that `x` and `./x` compare equal.
func canonicalPath(_ path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard let resolved = realpath(directory, nil) else { return path }
    defer { free(resolved) }
    let base = String(cString: resolved)
    let full = (base == "/" ? "" : base) + "/" + name
    // The file itself may be a symbolic link to another output.
    if let target = realpath(full, nil) {
        defer { free(target) }
        return String(cString: target)
    }
    return full
}
