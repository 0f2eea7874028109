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
        Exit status: 0 ok, 64 bad flag or an output over an input, 65 bad preset, 66 unknown preset or
        unreadable file, 73 output cannot be created, 74 write error (also on stdout), 129/130/131/143
        stopped by SIGHUP/SIGINT/SIGQUIT/SIGTERM (files complete up to then), 141 stdout's reader went away.
        """)

    @Argument(help: "A bundled preset's name (see `clumsy presets`) or a path to a preset file.")
    var preset: String = "default"

    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated seconds to run (\(Limits.text(Limits.duration)) s; default 60, or until Ctrl-C with --live).", valueName: "s"))
    var duration: Double?

    /// The flags that set preset fields (generated from the settings table).
    @OptionGroup(title: "Preset settings")
    var settings: SettingFlags

    @Option(help: ArgumentHelp("Write a Standard MIDI File (format 1, a track per voice: Bass, Keys, Drums).", valueName: "file.mid"))
    var midi: String?

    @Option(help: ArgumentHelp("Write the event log as JSON Lines.", valueName: "file.jsonl"))
    var events: String?

    @Option(help: ArgumentHelp("Render audio to a .wav, .flac or .ogg file through FluidSynth.", valueName: "file"))
    var audio: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Audio sample rate in Hz, a whole number (\(Limits.text(Limits.sampleRate)); default 44100).", valueName: "Hz"))
    var sampleRate: String?

    @Option(help: ArgumentHelp("SoundFont file (.sf2/.sf3). Else $CLUMSY_SOUNDFONT, the preset's, then Debian's (FluidR3_GM first).", valueName: "file"))
    var soundfont: String?

    @Option(help: ArgumentHelp("Also write one audio file per voice (bass.wav, keys.wav, … in --audio's format) and one MIDI file per voice (bass.mid, keys.mid, …) into this existing directory; they sum to the mix.", valueName: "dir"))
    var stems: String?

    @Flag(help: "Switch the filter, delay and reverb off.")
    var dry = false

    @Flag(help: "Play live through an audio driver, paced to the wall clock, until --duration or Ctrl-C.")
    var live = false

    @Option(help: ArgumentHelp("Audio driver for --live (this FluidSynth has: \(AudioDrivers.list)). With `file`, sound goes to --audio's file (default clumsy-live.wav) in real time.", valueName: "name"))
    var audioDriver: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    /// The sample rate: a whole number in `Limits.sampleRate` (checked in `validate()`).
    var sampleRateValue: Int { sampleRate.flatMap { Int($0) } ?? 44_100 }

    func validate() throws {
        if let sampleRate {
            guard let rate = Int(sampleRate), Limits.sampleRate.contains(rate) else {
                throw ValidationError("--sample-rate \(sampleRate) is not accepted; expected a whole number of Hz in \(Limits.text(Limits.sampleRate))")
            }
        }
        if let soundfont, soundfont.isEmpty { throw ValidationError("--soundfont needs a file name (leave the flag out for the default)") }
        if audioDriver != nil && !live { throw ValidationError("--audio-driver only applies with --live") }
        if let audio, audio.isEmpty { throw ValidationError("--audio needs a file name") }
        if let audio {
            let lower = audio.lowercased()
            guard lower.hasSuffix(".wav") || lower.hasSuffix(".flac") || lower.hasSuffix(".ogg") else {
                throw ValidationError("--audio \(audio): the file name must end in .wav, .flac or .ogg")
            }
        }
        try validateMix()
        if let midi, midi.isEmpty { throw ValidationError("--midi needs a file name") }
        if let events, events.isEmpty { throw ValidationError("--events needs a file name") }
    }

    /// Checks the mix flags against each other and the outputs (their values are checked by
    /// the settings table).
    func validateMix() throws {
        let given = settings.given
        if given["true-peak"] != nil, given["loudness"]?.lowercased() == "off" {
            throw ValidationError("--true-peak needs the loudness normalisation on: drop --loudness off")
        }
        if given["bit-depth"] == "32f", let audio, audio.lowercased().hasSuffix(".flac") {
            throw ValidationError("--bit-depth 32f needs a .wav file: FLAC stores 16- or 24-bit integers")
        }
        let rendersFile = audio != nil && !live
        for (flag, isGiven) in [("--stems", stems != nil), ("--loudness", given["loudness"] != nil),
                                ("--true-peak", given["true-peak"] != nil), ("--bit-depth", given["bit-depth"] != nil)]
        where isGiven && !rendersFile {
            throw ValidationError("\(flag) applies to an audio render: add --audio <file> (and not --live)")
        }
        if let stems, stems.isEmpty { throw ValidationError("--stems needs a directory") }
    }

    func run() throws {
        var overrides = Overrides()
        overrides.flags = settings.given
        overrides.isDry = dry
        var request = RunRequest(preset: preset, duration: duration ?? (live ? Limits.duration.upperBound : 60),
                                 overrides: overrides, midiPath: midi, eventsPath: events, isQuiet: quiet)
        request.audioPath = audio
        request.sampleRate = Double(sampleRateValue)
        request.soundFont = soundfont
        request.isLive = live
        request.audioDriver = audioDriver
        request.environment = ProcessInfoLite.environment
        request.mix.stemsDirectory = stems
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
