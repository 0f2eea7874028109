// Generated from the settings table (Sources/Presets/Settings.swift) by `make docs`; do not edit.
import ArgumentParser
import Presets

/// The flags of `clumsy run` that set a preset field; help and checks come from `Settings`.
struct SettingFlags: ParsableArguments {
    @Option(name: .customLong("seed"), parsing: .unconditional, help: Self.help("seed", "n")) var seed: String?; @Option(name: .customLong("tempo"), parsing: .unconditional, help: Self.help("tempo", "bpm")) var tempo: String?; @Option(name: .customLong("meter"), parsing: .unconditional, help: Self.help("meter", "n/d")) var meter: String?; @Option(name: .customLong("quantize"), parsing: .unconditional, help: Self.help("quantize", "grid")) var quantize: String?; @Option(name: .customLong("strength"), parsing: .unconditional, help: Self.help("strength", "x")) var strength: String?; @Option(name: .customLong("swing"), parsing: .unconditional, help: Self.help("swing", "x")) var swing: String?; @Option(name: .customLong("chord-change"), parsing: .unconditional, help: Self.help("chord-change", "hit|beat|bar")) var chordChange: String?; @Option(name: .customLong("key"), parsing: .unconditional, help: Self.help("key", "tonic")) var key: String?; @Option(name: .customLong("mode"), parsing: .unconditional, help: Self.help("mode", "name")) var mode: String?; @Option(name: .customLong("gravity"), parsing: .unconditional, help: Self.help("gravity", "m/s²")) var gravity: String?; @Option(name: .customLong("speed"), parsing: .unconditional, help: Self.help("speed", "m/s")) var speed: String?; @Option(name: .customLong("tone"), parsing: .unconditional, help: Self.help("tone", "name")) var tone: String?; @Option(name: .customLong("gain"), parsing: .unconditional, help: Self.help("gain", "x")) var gain: String?; @Option(name: .customLong("filter"), parsing: .unconditional, help: Self.help("filter", "Hz|off")) var filter: String?; @Option(name: .customLong("resonance"), parsing: .unconditional, help: Self.help("resonance", "dB")) var resonance: String?; @Option(name: .customLong("delay"), parsing: .unconditional, help: Self.help("delay", "s|off")) var delay: String?; @Option(name: .customLong("feedback"), parsing: .unconditional, help: Self.help("feedback", "x")) var feedback: String?; @Option(name: .customLong("delay-mix"), parsing: .unconditional, help: Self.help("delay-mix", "x")) var delayMix: String?; @Option(name: .customLong("reverb"), parsing: .unconditional, help: Self.help("reverb", "x|off")) var reverb: String?; @Option(name: .customLong("room"), parsing: .unconditional, help: Self.help("room", "x")) var room: String?

    /// The flags given: flag name → text.
    var given: [String: String] {
        let values: [(String, String?)] = [("seed", seed), ("tempo", tempo), ("meter", meter), ("quantize", quantize), ("strength", strength), ("swing", swing), ("chord-change", chordChange), ("key", key), ("mode", mode), ("gravity", gravity), ("speed", speed), ("tone", tone), ("gain", gain), ("filter", filter), ("resonance", resonance), ("delay", delay), ("feedback", feedback), ("delay-mix", delayMix), ("reverb", reverb), ("room", room)]
        return Dictionary(uniqueKeysWithValues: values.compactMap { flag, text in text.map { (flag, $0) } })
    }

    private static func help(_ flag: String, _ valueName: String) -> ArgumentHelp {
        ArgumentHelp(Settings.setting(flag: flag)!.help, valueName: valueName)
    }
}
