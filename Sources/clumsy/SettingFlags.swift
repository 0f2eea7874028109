// Generated from the settings table (Sources/Presets/Settings.swift) by `make docs`; do not edit.
import ArgumentParser
import Presets

/// The flags of `clumsy run` that set a preset field; help and checks come from `Settings`.
struct SettingFlags: ParsableArguments {
    @Option(name: .customLong("seed"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "seed")!.help, valueName: "n"))
    var seed: String?
    @Option(name: .customLong("tempo"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "tempo")!.help, valueName: "bpm"))
    var tempo: String?
    @Option(name: .customLong("meter"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "meter")!.help, valueName: "n/d"))
    var meter: String?
    @Option(name: .customLong("quantize"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "quantize")!.help, valueName: "grid"))
    var quantize: String?
    @Option(name: .customLong("strength"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "strength")!.help, valueName: "x"))
    var strength: String?
    @Option(name: .customLong("swing"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "swing")!.help, valueName: "x"))
    var swing: String?
    @Option(name: .customLong("chord-change"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "chord-change")!.help, valueName: "hit|beat|bar"))
    var chordChange: String?
    @Option(name: .customLong("key"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "key")!.help, valueName: "tonic"))
    var key: String?
    @Option(name: .customLong("mode"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "mode")!.help, valueName: "name"))
    var mode: String?
    @Option(name: .customLong("gravity"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "gravity")!.help, valueName: "m/s²"))
    var gravity: String?
    @Option(name: .customLong("speed"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "speed")!.help, valueName: "m/s"))
    var speed: String?
    @Option(name: .customLong("tone"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "tone")!.help, valueName: "name"))
    var tone: String?
    @Option(name: .customLong("gain"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "gain")!.help, valueName: "x"))
    var gain: String?
    @Option(name: .customLong("filter"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "filter")!.help, valueName: "Hz|off"))
    var filter: String?
    @Option(name: .customLong("resonance"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "resonance")!.help, valueName: "dB"))
    var resonance: String?
    @Option(name: .customLong("delay"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "delay")!.help, valueName: "s|off"))
    var delay: String?
    @Option(name: .customLong("feedback"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "feedback")!.help, valueName: "x"))
    var feedback: String?
    @Option(name: .customLong("delay-mix"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "delay-mix")!.help, valueName: "x"))
    var delayMix: String?
    @Option(name: .customLong("reverb"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "reverb")!.help, valueName: "x|off"))
    var reverb: String?
    @Option(name: .customLong("room"), parsing: .unconditional,
            help: ArgumentHelp(Settings.setting(flag: "room")!.help, valueName: "x"))
    var room: String?
    /// The flags given: flag name → text.
    var given: [String: String] {
        var flags: [String: String] = [:]
        if let seed { flags["seed"] = seed }
        if let tempo { flags["tempo"] = tempo }
        if let meter { flags["meter"] = meter }
        if let quantize { flags["quantize"] = quantize }
        if let strength { flags["strength"] = strength }
        if let swing { flags["swing"] = swing }
        if let chordChange { flags["chord-change"] = chordChange }
        if let key { flags["key"] = key }
        if let mode { flags["mode"] = mode }
        if let gravity { flags["gravity"] = gravity }
        if let speed { flags["speed"] = speed }
        if let tone { flags["tone"] = tone }
        if let gain { flags["gain"] = gain }
        if let filter { flags["filter"] = filter }
        if let resonance { flags["resonance"] = resonance }
        if let delay { flags["delay"] = delay }
        if let feedback { flags["feedback"] = feedback }
        if let delayMix { flags["delay-mix"] = delayMix }
        if let reverb { flags["reverb"] = reverb }
        if let room { flags["room"] = room }
        return flags
    }
}
