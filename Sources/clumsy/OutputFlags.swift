import ArgumentParser
import Session
import Presets

/// The output flags `clumsy run` and `clumsy replay` share, with one help text each. The
/// sample rate is checked here, so a bad one is the user's error (exit 64) in `replay` too,
/// never blamed on the log it replays; `run` checks the other values.
struct OutputFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Write a Standard MIDI File (format 1, a track per voice: Bass, Keys, Drums).", valueName: "file.mid"), completion: Completions.files("mid"))
    var midi: String?

    @Option(help: ArgumentHelp("Write the event log as JSON Lines.", valueName: "file.jsonl"), completion: Completions.files("jsonl"))
    var events: String?

    @Option(help: ArgumentHelp("Render audio to a .wav, .flac or .ogg file through FluidSynth.", valueName: "file"), completion: Completions.files("wav", "flac", "ogg"))
    var audio: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Audio sample rate in Hz, a whole number (\(Limits.text(Limits.sampleRate)); default 44100).", valueName: "Hz"))
    var sampleRate: String?

    @Option(help: ArgumentHelp("SoundFont file (.sf2/.sf3). Else $CLUMSY_SOUNDFONT, the preset's, then Debian's (FluidR3_GM first).", valueName: "file"), completion: Completions.files("sf2", "sf3"))
    var soundfont: String?

    /// The sample rate: a whole number in `Limits.sampleRate` (checked in `validate()`).
    var sampleRateValue: Int { sampleRate.flatMap { Int($0) } ?? 44_100 }

    /// The flags given, as `clumsy run` arguments.
    var arguments: [String] {
        [("--sample-rate", sampleRate), ("--midi", midi), ("--events", events), ("--audio", audio), ("--soundfont", soundfont)]
            .flatMap { flag, value in value.map { [flag, $0] } ?? [] }
    }

    func validate() throws {
        if let sampleRate {
            guard let rate = Int(sampleRate), Limits.sampleRate.contains(rate) else {
                throw ValidationError("--sample-rate \(sampleRate) is not accepted; expected a whole number of Hz in \(Limits.text(Limits.sampleRate))")
            }
        }
    }
}
