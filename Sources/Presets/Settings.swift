import Theory
import Performance

/// The settings table: every value a preset or a flag of `clumsy run` can set, one row each.
///
/// To add a setting, add a row here (and a stored property to `Preset` for it), then run
/// `make docs`: it regenerates the reference in `Presets/README.md` and the flag
/// declarations in `Sources/clumsy/SettingFlags.swift`; a test fails until both match.
public enum Settings {
    private static let s = Preset.metresPerPoint

    /// Every setting, in the order the reference lists them (a block before its fields).
    public static let all: [Setting] = [
        .text("name", \.name, default: "", defaultText: "file name without `.json`",
              doc: "name shown in summaries and the MIDI file"),
        .text("description", \.description, default: "", doc: "one line for `clumsy presets`"),
        .seed("seed", \.seed, default: 1, flag: "seed",
              doc: "seed of every random choice: same seed, same session"),
        .number("tempo", \.tempo, unit: "bpm", default: 120, range: 20...400,
                doc: "tempo written into the MIDI file (the physics has no tempo)"),
        .number("timestep", \.timestep, unit: "s", default: 1.0 / 240, range: (1.0 / 4000)...(1.0 / 240),
                defaultText: "1/240", accepted: "1/4000…1/240",
                doc: "fixed physics step; sub-steps are added automatically so that no ball moves more than half the smallest gap (a radius, or a key's half thickness) per Chipmunk step"),
        .custom("key.tonic", type: "string", defaultText: "`\"C\"`", accepted: "A–G with `#`/`♯`/`b`/`♭`", doc: "tonic",
                setDefault: { $0.key = Key(tonic: PitchClass(0), scale: $0.key.scale) },
                read: { json, preset, r throws(SessionError) in
                    let name = try r.string(json, at: "key.tonic", expected: "a note name such as \"C\", \"F#\" or \"Bb\"")
                    guard let tonic = PitchClass(name: name) else {
                        throw r.fail("key.tonic", "\"\(Quote.cut(name))\" is not a note name; expected a letter A–G with optional # or b (\"C\", \"F#\", \"Bb\")")
                    }
                    preset.key = Key(tonic: tonic, scale: preset.key.scale)
                }),
        .custom("key.scale", type: "string", defaultText: "`\"major\"`",
                accepted: "major, minor, dorian, phrygian, lydian, mixolydian, locrian, harmonicMinor, melodicMinor (also ionian, aeolian, \"harmonic minor\", …)",
                doc: "mode; chords are the diatonic seventh chords of this scale",
                setDefault: { $0.key = Key(tonic: $0.key.tonic, scale: .major) },
                read: { json, preset, r throws(SessionError) in
                    let name = try r.string(json, at: "key.scale", expected: "a scale name")
                    guard let scale = Scale.named(name) else {
                        throw r.fail("key.scale", "\"\(Quote.cut(name))\" is not a known scale; expected one of: \(Scale.catalogNames.joined(separator: ", "))")
                    }
                    preset.key = Key(tonic: preset.key.tonic, scale: scale)
                }),
        .choice("layout", \.layout, default: .original,
                doc: "bouncer arrangement: the app's (I centre, ii/iii top corners, IV/V edges, vi/vii° bottom corners); a ring, I at the top, clockwise; or seeded random places"),
        .number("gravity", \.gravity, unit: "m/s²", default: 9.81, range: 0...100, flag: "gravity",
                doc: "downward acceleration of the piano balls (9.81 = Earth)"),
        .number("speed", \.speed, unit: "m/s", default: 275 * s, range: 0.1...20, flag: "speed",
                defaultText: "1.8333 (275 pt/s)", doc: "the bass ball's constant speed"),

        .list("bass.bouncers", \.bass.bouncers, default: Array(1...7), range: 1...7, maximumCount: 7, what: "scale degree",
              type: "array of degrees", accepted: "1–7 distinct, at least one", doc: "which bouncers are switched on"),
        .number("bass.radius", \.bass.radius, unit: "m", default: 33 * s, range: 0.05...0.6, defaultText: "0.22 (33 pt)",
                doc: "bass ball radius"),
        .number("bass.bouncerRadius", \.bass.bouncerRadius, unit: "m", default: 40 * s, range: 0.05...0.8,
                defaultText: "0.2667 (40 pt)", doc: "bouncer radius"),
        .pitch("bass.register", \.bass.register, default: 48, range: Limits.register,
               doc: "bass notes are degree roots folded into the octave from here"),
        .tone("bass.tone", \.bass.tone, default: "acoustic-bass", catalog: Tone.bassCatalog,
              lookup: { Tone.bass(named: $0) }, what: "bass tone", doc: "General MIDI instrument of the bass"),
        .number("bass.noteLength", \.bass.noteLength, unit: "s", default: 0.9, range: Limits.noteLength, doc: "bass note length"),
    ] + Setting.curve("bass.velocity", \.bass.velocity.quiet, \.bass.velocity.loud, \.bass.velocity.exponent,
                      unit: "× speed", default: (0, 1, 0.5),
                      quietDoc: "impact speed giving velocity 1, as a **fraction of the bass speed** (1 = a head-on hit)") + [
        .number("bass.kickAfter", \.bass.kickAfter, unit: "s", default: 8, range: 0.5...600,
                doc: "a bass ball that hits no bouncer for this long, or bounces between just two bouncers for 12 hits, is kicked in a fresh seeded direction"),

        .list("keys.tones", \.keys.tones, default: [1, 2, 3, 4], range: 1...4, maximumCount: 4, what: "chord tone",
              type: "array of chord tones", accepted: "1 root, 2 3rd, 3 5th, 4 7th; 1–4 distinct",
              doc: "the keys, left to right, and the chord tone each plays"),
        .choice("keys.voicing", \.keys.voicing, default: .folded,
                doc: "folded (the app's): root, 3rd, 5th folded into the octave from `keys.register`, 7th above the root; close: stacked from the folded root; open: root, 5th, then 3rd and 7th an octave up"),
        .pitch("keys.register", \.keys.register, default: 60, range: Limits.register,
               doc: "base of the voicing (notes must stay in MIDI 0…127)"),
        .tone("keys.tone", \.keys.tone, default: "marimba", catalog: Tone.keysCatalog, lookup: { Tone.keys(named: $0) },
              what: "keys tone", flag: "tone", doc: "General MIDI instrument of the keys"),
        .number("keys.noteLength", \.keys.noteLength, unit: "s", default: 0.6, range: Limits.noteLength, doc: "keys note length"),
    ] + Setting.curve("keys.velocity", \.keys.velocity.quiet, \.keys.velocity.loud, \.keys.velocity.exponent,
                      unit: "m/s", default: (0.25, 10.5, 0.7),
                      quietDoc: "impact speed along the contact normal giving velocity 1") + [
        .number("keys.minimumSpeed", \.keys.minimumSpeed, unit: "m/s", default: 0.25, range: Limits.impactSpeed,
                doc: "slower contacts (a ball settling) are not hits"),

        .integer("piano.count", \.piano.count, default: 4, range: 0...1000, accepted: "0…1000 (must fit the area)",
                 doc: "number of piano balls"),
        .number("piano.radius", \.piano.radius, unit: "m", default: 20 * s, range: 0.04...0.5, defaultText: "0.1333 (20 pt)",
                doc: "piano ball radius (from 0.04 m: smaller balls that do not collide were seen to slip out of the piano area)"),
        .number("piano.restitution", \.piano.restitution, default: 0.98, range: 0.5...1,
                doc: "bounciness against keys, walls and each other"),
        .number("piano.friction", \.piano.friction, default: 0, range: 0...2, doc: "friction coefficient"),
        .number("piano.redropAfter", \.piano.redropAfter, unit: "s", default: 12, range: 0.5...3600,
                doc: "a piano ball that strikes no key for this long is dropped again from a seeded spot in the upper half"),
        .number("piano.restAfter", \.piano.restAfter, unit: "s", default: 2, range: 0.1...3600,
                doc: "a piano ball lying still (slower than 0.05 m/s, checked every 0.05 s) for this long is dropped again"),
        .boolean("piano.collide", \.piano.collide, default: true,
                 doc: "whether piano balls collide with each other; false makes a rain that never piles up (and is far cheaper for hundreds of balls)"),

        .file("sound.soundFont", \.sound.soundFont,
              doc: "SoundFont used when no `--soundfont` or `CLUMSY_SOUNDFONT` is given; a relative path is relative to the preset file's folder"),
        .number("sound.gain", \.sound.gain, default: 0.5, range: 0...2, flag: "gain",
                doc: "master gain of the synthesizer (above 1, many notes at once may clip)"),
        .block("sound.filter", \.sound.isFilterOn, default: false, doc: "low-pass filter on every note"),
        .number("sound.filter.cutoff", \.sound.filterValues.cutoff, unit: "Hz", default: 1500, range: 20...20_000,
                flag: "filter", takesOff: true, doc: "low-pass filter cutoff"),
        .number("sound.filter.resonance", \.sound.filterValues.resonance, unit: "dB", default: 0, range: 0...20,
                flag: "resonance", doc: "low-pass resonance"),
        .block("sound.delay", \.sound.isDelayOn, default: true, doc: "feedback delay on the mix"),
        .number("sound.delay.time", \.sound.delayValues.time, unit: "s", default: 0.375, range: 0...5,
                flag: "delay", takesOff: true, doc: "delay time"),
        .number("sound.delay.feedback", \.sound.delayValues.feedback, default: 0.3, range: 0...0.95,
                flag: "feedback", doc: "delay feedback: each echo's level relative to the one before"),
        .number("sound.delay.mix", \.sound.delayValues.mix, default: 0.2, range: 0...1, flag: "delay-mix",
                doc: "delay wet mix"),
        .block("sound.reverb", \.sound.isReverbOn, default: true, doc: "reverb"),
        .number("sound.reverb.level", \.sound.reverbValues.level, default: 0.25, range: 0...1, flag: "reverb",
                takesOff: true, doc: "reverb level"),
        .number("sound.reverb.room", \.sound.reverbValues.room, default: 0.5, range: 0...1, flag: "room",
                doc: "reverb room size"),
    ]

    /// The setting at `path`, if any.
    public static func setting(at path: String) -> Setting? { all.first { $0.path == path } }

    /// The setting whose flag is `flag` (without dashes), if any.
    public static func setting(flag: String) -> Setting? { all.first { $0.flag == flag } }

    /// Every setting with a flag, in table order.
    public static var flagged: [Setting] { all.filter { $0.flag != nil } }

    /// The switchable block a setting belongs to, if any.
    static func block(of setting: Setting) -> Setting? {
        all.first { $0.isSwitch && setting.path.hasPrefix($0.path + ".") }
    }

    /// The names of the fields directly under `path` ("" = the top level), in table order.
    static func children(of path: String) -> [String] {
        var names: [String] = []
        let prefix = path.isEmpty ? "" : path + "."
        for setting in all where setting.path.hasPrefix(prefix) {
            let rest = setting.path.dropFirst(prefix.count)
            let name = String(rest.prefix { $0 != "." })
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
