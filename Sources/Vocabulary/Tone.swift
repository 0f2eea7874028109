// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A named instrument sound: a General MIDI bank and program.
public struct Tone: Sendable, Hashable {
    /// The name used in presets and on the command line ("marimba").
    public var name: String
    /// General MIDI bank (0 for melodic GM sounds).
    public var bank: Int
    /// General MIDI program, 0…127 (0 = Acoustic Grand Piano).
    public var program: Int
    /// One line for `clumsy tones`.
    public var summary: String

    /// Creates a tone.
    public init(name: String, bank: Int = 0, program: Int, summary: String) {
        self.name = name
        self.bank = bank
        self.program = program
        self.summary = summary
    }
}

extension Tone {
    /// Tones for the keys voice; the original app's seven sounds first, marimba the default.
    public static let keysCatalog: [Tone] = [
        Tone(name: "marimba", program: 12, summary: "GM 13 Marimba: wooden bars, the original app's default"),
        Tone(name: "pluck", program: 45, summary: "GM 46 Pizzicato Strings: short plucked strings"),
        Tone(name: "clav", program: 7, summary: "GM 8 Clavinet: funky struck strings"),
        Tone(name: "electric-piano", program: 4, summary: "GM 5 Electric Piano 1: little tine piano"),
        Tone(name: "grand-piano", program: 0, summary: "GM 1 Acoustic Grand Piano"),
        Tone(name: "muted", program: 28, summary: "GM 29 Electric Guitar (muted): damped, percussive"),
        Tone(name: "harp", program: 46, summary: "GM 47 Orchestral Harp"),
        Tone(name: "vibraphone", program: 11, summary: "GM 12 Vibraphone: metal bars with a long ring"),
        Tone(name: "celesta", program: 8, summary: "GM 9 Celesta: bell-like keyboard"),
        Tone(name: "music-box", program: 10, summary: "GM 11 Music Box"),
        Tone(name: "kalimba", program: 108, summary: "GM 109 Kalimba: thumb piano"),
        // Sustained tones, for a melody that sings over the struck keys.
        Tone(name: "flute", program: 73, summary: "GM 74 Flute: a sung line"),
        Tone(name: "recorder", program: 74, summary: "GM 75 Recorder: soft and woody"),
        Tone(name: "ocarina", program: 79, summary: "GM 80 Ocarina: round and pure"),
        Tone(name: "clarinet", program: 71, summary: "GM 72 Clarinet: warm reed"),
        Tone(name: "oboe", program: 68, summary: "GM 69 Oboe: bright reed"),
        Tone(name: "fiddle", program: 40, summary: "GM 41 Violin: a fiddle's bowed line"),
        Tone(name: "accordion", program: 21, summary: "GM 22 Accordion: reeds and bellows"),
    ]

    /// Tones for the bass voice; acoustic bass the default.
    public static let bassCatalog: [Tone] = [
        Tone(name: "acoustic-bass", program: 32, summary: "GM 33 Acoustic Bass: upright, plucked"),
        Tone(name: "finger-bass", program: 33, summary: "GM 34 Electric Bass (finger)"),
        Tone(name: "fretless-bass", program: 35, summary: "GM 36 Fretless Bass: smooth, singing"),
        Tone(name: "synth-bass", program: 38, summary: "GM 39 Synth Bass 1"),
        Tone(name: "contrabass", program: 43, summary: "GM 44 Contrabass: bowed"),
        Tone(name: "marimba", program: 12, summary: "GM 13 Marimba, low"),
        Tone(name: "grand-piano", program: 0, summary: "GM 1 Acoustic Grand Piano, left hand"),
    ]

    /// The keys tone named `name` (case-insensitive; spaces and underscores read as hyphens),
    /// or a SoundFont's `bank:program`.
    public static func keys(named name: String) -> Tone? {
        keysCatalog.first { $0.name == normalized(name) } ?? soundFontPreset(name)
    }

    /// The bass tone named `name` (case-insensitive; spaces and underscores read as hyphens),
    /// or a SoundFont's `bank:program`.
    public static func bass(named name: String) -> Tone? {
        bassCatalog.first { $0.name == normalized(name) } ?? soundFontPreset(name)
    }

    /// The accepted banks of `bank:program`: the General MIDI banks and 128, the percussion kits.
    public static let banks = 0...128

    /// A tone given as the SoundFont's `bank:program` (`0:65`, `8:4`, `128:0`), as fluidsynth's
    /// `select` takes it: bank 0…128 and program 0…127, in decimal digits. Whether the
    /// SoundFont in use has that preset is checked once it is known (`SoundFontPresets`).
    public static func soundFontPreset(_ text: String) -> Tone? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...3).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let bank = Int(parts[0]), let program = Int(parts[1]), banks.contains(bank), (0...127).contains(program) else { return nil }
        return Tone(name: "\(bank):\(program)", bank: bank, program: program, summary: "bank \(bank), program \(program) of the SoundFont")
    }

    private static func normalized(_ name: String) -> String {
        String(name.lowercased().map { $0 == " " || $0 == "_" ? "-" : $0 })
    }
}
