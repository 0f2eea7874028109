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
        73 output cannot be created, 74 write error, 130/143 interrupted (files complete up to then).
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

    @Option(help: ArgumentHelp("Also write one audio file per voice (bass.wav, keys.wav, … in --audio's format) and one MIDI file per voice (bass.mid, keys.mid) into this existing directory; they sum to the mix.", valueName: "dir"))
    var stems: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Integrated loudness of --audio in LUFS (-40…0), or off (default -16).", valueName: "LUFS|off"))
    var loudness: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("True-peak ceiling of --audio in dBTP (-9…0, default -1), kept by a look-ahead limiter.", valueName: "dBTP"))
    var truePeak: Double?

    @Option(help: ArgumentHelp("Sample format of WAV and FLAC files: 16 (TPDF-dithered), 24 (default) or 32f (WAV only).", valueName: "16|24|32f"))
    var bitDepth: String?

    @Flag(help: "Switch the filter, delay and reverb off.")
    var dry = false

    @Flag(help: "Play live through an audio driver, paced to the wall clock, until --duration or Ctrl-C.")
    var live = false

    @Option(help: ArgumentHelp("Audio driver for --live (FluidSynth's: pulseaudio, pipewire, alsa, jack, file, …). With `file`, sound goes to --audio's file (default clumsy-live.wav) in real time.", valueName: "name"))
    var audioDriver: String?

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
        try validateMix()
        if let gravity { try check("--gravity", gravity, Limits.gravity, unit: "m/s²") }
        if let speed { try check("--speed", speed, Limits.speed, unit: "m/s") }
        if let midi, midi.isEmpty { throw ValidationError("--midi needs a file name") }
        if let events, events.isEmpty { throw ValidationError("--events needs a file name") }
    }

    /// The loudness target (nil = off), once `validate()` accepted it.
    var loudnessValue: Double? {
        guard let loudness else { return -16 }
        return loudness.lowercased() == "off" ? nil : Double(loudness)
    }

    func validateMix() throws {
        if let loudness, loudness.lowercased() != "off" {
            guard let value = Double(loudness) else {
                throw ValidationError("--loudness takes a loudness in LUFS (-40…0) or off, not \(loudness)")
            }
            try check("--loudness", value, -40...0, unit: "LUFS")
        }
        if let truePeak {
            try check("--true-peak", truePeak, -9...0, unit: "dBTP")
            if loudness?.lowercased() == "off" {
                throw ValidationError("--true-peak needs the loudness normalisation on: drop --loudness off")
            }
        }
        if let bitDepth {
            if let problem = MixRequest.problem(bitDepth: bitDepth, audioPath: audio) { throw ValidationError(problem) }
        }
        let rendersFile = audio != nil && !live
        for (flag, given) in [("--stems", stems != nil), ("--loudness", loudness != nil), ("--true-peak", truePeak != nil),
                              ("--bit-depth", bitDepth != nil)] where given && !rendersFile {
            throw ValidationError("\(flag) applies to an audio render: add --audio <file> (and not --live)")
        }
        if let stems, stems.isEmpty { throw ValidationError("--stems needs a directory") }
    }

    func run() throws {
        installSignalHandlers()
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
        request.mix.stemsDirectory = stems
        request.mix.loudness = loudnessValue
        if let truePeak { request.mix.truePeak = truePeak }
        if let bitDepth { request.mix.bitDepth = bitDepth }
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
