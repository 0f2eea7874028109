// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Text
import Theory
import Vocabulary

/// The settings table: every value a preset or a flag of `clumsy run` can set, one row each.
///
/// To add a setting, add a row here (and a stored property to `Preset` for it), then run
/// `make docs`: it regenerates the reference in `Presets/README.md` and the flag
/// declarations in `Sources/clumsy/SettingFlags.swift`; a test fails until both match.
public enum Settings {
    private static let s = Preset.metresPerPoint

    /// The words shell completion offers for `--mode`: the names the docs write, with a hyphen for a
    /// space so that one word completes ("harmonic-minor"; `Scale.named` ignores the hyphen).
    public static var modeWords: [String] { Scale.all.map { String($0.displayName.map { $0 == " " ? "-" : $0 }) } + ["ionian", "aeolian"] }

    /// Every setting, in the order the reference lists them (a block before its fields).
    public static let all: [Setting] = [
        .text("name", \.name, default: "", defaultText: "file name without `.json`",
              doc: "name shown in summaries and the MIDI file"),
        .text("description", \.description, default: "", doc: "one line for `clumsy presets`"),
        .seed("seed", \.seed, default: 1, flag: "seed",
              doc: "seed of every random choice: same seed, same session"),
        .number("tempo", \.tempo, unit: Limits.tempo.unit, default: 120, range: Limits.tempo.range, flag: "tempo",
                doc: "quarter notes per minute: the MIDI file's tempo and the clock of the grid, the accents and the chord changes (the physics has no tempo)"),
        .custom("meter", type: "string", defaultText: "`\"4/4\"`", accepted: Meter.all.map(\.description).joined(separator: ", "),
                flag: "meter", valueName: "n/d",
                doc: "time signature; strong beats: 4/4 beats 1 and 3, 3/4 beat 1, 6/8 beats 1 and 4, 5/4 (3+2) beats 1 and 4, 7/8 (2+2+3) beats 1, 3 and 5",
                setDefault: { $0.meter = Meter("4/4")! },
                read: { json, preset, r throws(SessionError) in
                    let names = Meter.all.map(\.description)
                    preset.meter = Meter(try r.choice(json, at: "meter", choices: names))!
                },
                parse: { text, preset throws(SessionError) in
                    guard let meter = Meter(text) else {
                        throw .usage("--meter \(Quote.text(text)) is not accepted\(Suggestion.didYouMean(text, in: Meter.all.map(\.description))); expected one of: \(Meter.all.map(\.description).joined(separator: ", "))")
                    }
                    preset.meter = meter
                }),
        .custom("time.quantize", type: "string", defaultText: "`\"off\"`", accepted: Grid.all.map(\.description).joined(separator: ", "),
                flag: "quantize", valueName: "grid",
                doc: "each note sounds on the first line of this grid at or after its hit (never before it; `t` in the event log, `hit` the physical time); strikes of one pitch on one line become one note, the loudest; off plays every note at its hit",
                setDefault: { $0.time.quantize = .off },
                read: { json, preset, r throws(SessionError) in
                    preset.time.quantize = Grid(try r.choice(json, at: "time.quantize", choices: Grid.all.map(\.description)))!
                },
                parse: { text, preset throws(SessionError) in
                    guard let grid = Grid(text) else {
                        throw .usage("--quantize \(Quote.text(text)) is not accepted\(Suggestion.didYouMean(text, in: Grid.all.map(\.description))); expected one of: \(Grid.all.map(\.description).joined(separator: ", "))")
                    }
                    preset.time.quantize = grid
                }),
        .number("time.strength", \.time.strength, default: 1, range: 0...1, flag: "strength",
                doc: "how far a quantised note moves from its hit toward its grid line (1 = onto the line, 0.5 = half way)"),
        .number("time.swing", \.time.swing, default: 0, range: 0...0.75, flag: "swing",
                doc: "every second grid line is delayed by this fraction of a grid step"),
        .integer("time.accent.downbeat", \.time.downbeatAccent, default: 12, range: 0...127,
                 doc: "velocity added to a quantised note on beat 1 of a bar (clamped to 127)"),
        .integer("time.accent.strong", \.time.strongAccent, default: 6, range: 0...127,
                 doc: "velocity added to a quantised note on the meter's other strong beats"),
        .integer("time.velocityFloor", \.time.velocityFloor, default: 0, range: 0...127,
                 doc: "velocities 1…127 are mapped linearly onto floor…127, lifting ghost notes (0 or 1: unchanged)"),
        .number("time.swell", \.time.swell, default: 0, range: 0...0.8,
                doc: "each phrase (`form.bars`, else `melody.phrase`) swells and falls: every voice's velocities are scaled by 1 − swell at the phrase's first and last bar lines, rising to full at 61 % of it (before the floor and accents); 0: unchanged"),
        .choice("time.chordChange", \.time.chordChange, default: .hit, flag: "chord-change",
                doc: "when a bouncer's chord takes over: at the hit, on the next beat line or on the next bar line (then the bass note sounds on that line)"),
        .boolean("time.endNonChordTones", \.time.endNonChordTones, default: false,
                 doc: "at a chord change, end the ringing key notes that are not tones of the new chord"),
        .number("timestep", \.timestep, unit: "s", default: 1.0 / 240, range: (1.0 / 4000)...(1.0 / 240),
                defaultText: "1/240", accepted: "1/4000…1/240",
                doc: "fixed physics step; sub-steps are added automatically so that no ball moves more than half the smallest gap (a radius, or a key's half thickness) per Chipmunk step"),
        .custom("key.tonic", type: "string", defaultText: "`\"C\"`", accepted: "A–G, with `#` or `b` for sharp or flat (or the Unicode sharp and flat signs)", flag: "key", valueName: "tonic",
                doc: "tonic, spelled as written (`\"Gb\"` prints G♭ major) unless its signature needs more than seven accidentals (`\"D#\"` major is E♭ major)",
                setDefault: { $0.keyTonic = SpelledPitchClass(letter: 0, accidental: 0) },
                read: { json, preset, r throws(SessionError) in
                    let name = try r.string(json, at: "key.tonic", expected: "a note name such as \"C\", \"F#\" or \"Bb\"")
                    guard let tonic = SpelledPitchClass(name: name) else {
                        throw r.fail("key.tonic", "\"\(Quote.text(name))\" is not a note name; expected a letter A–G with optional # or b (\"C\", \"F#\", \"Bb\")")
                    }
                    preset.keyTonic = tonic
                },
                parse: { text, preset throws(SessionError) in
                    guard let tonic = SpelledPitchClass(name: text) else {
                        throw .usage("--key \(Quote.text(text)) is not a tonic; accepted: \(KeyNames.acceptedTonics)")
                    }
                    preset.keyTonic = tonic
                }),
        .custom("key.scale", type: "string", defaultText: "`\"major\"`",
                accepted: "\(KeyNames.acceptedModes); case, spaces, hyphens and underscores are ignored (\"harmonic-minor\", \"harmonicMinor\")",
                flag: "mode", valueName: "name",
                doc: "mode; chords are the seventh chords of this scale built from its own tones: thirds stacked over the degree, skipping a tone the scale lacks (pentatonic and blues: C major pentatonic's I is C E G D), so every key note is in the scale; pentatonic and blues switch off the bouncers of the two degrees they lack",
                setDefault: { $0.keyScale = .major },
                read: { json, preset, r throws(SessionError) in
                    let name = try r.string(json, at: "key.scale", expected: "a scale name")
                    guard let scale = Scale.named(name) else {
                        throw r.fail("key.scale", "\"\(Quote.text(name))\" is not a known scale\(Suggestion.didYouMean(name, in: KeyNames.modeNames)); expected one of: \(KeyNames.acceptedModes)")
                    }
                    preset.keyScale = scale
                },
                parse: { text, preset throws(SessionError) in
                    guard let scale = Scale.named(text) else {
                        throw .usage("--mode \(Quote.text(text)) is not a known mode\(Suggestion.didYouMean(text, in: KeyNames.modeNames)); accepted: \(KeyNames.acceptedModes)")
                    }
                    preset.keyScale = scale
                }),
        .choice("layout", \.layout, default: .original,
                doc: "bouncer arrangement: the app's (I centre, ii/iii top corners, IV/V edges, vi/vii° bottom corners); a ring, I at the top, clockwise; seeded random places; or `fifths`, a ring in circle-of-fifths order (I IV vii° iii vi ii V clockwise from the top, neighbours a fifth apart) small enough to leave a 1.5-ball-diameter corridor to the walls, which the ball runs round striking neighbour after neighbour. The `ring` is widened until neighbours leave 1.5 ball diameters between them, so the ball reaches every bouncer from inside and outside"),
        .number("gravity", \.gravity, unit: Limits.gravity.unit, default: 9.81, range: Limits.gravity.range, flag: "gravity",
                doc: "downward acceleration of the piano balls (9.81 = Earth)"),
        .number("speed", \.speed, unit: Limits.speed.unit, default: 275 * s, range: Limits.speed.range, flag: "speed",
                defaultText: "1.8333 (275 pt/s)", doc: "the bass ball's constant speed"),

        .list("bass.bouncers", \.bass.bouncers, default: Array(1...7), range: 1...7, maximumCount: 7, what: "scale degree",
              type: "array of degrees", accepted: "1–7 distinct, at least one", doc: "which bouncers are switched on"),
        .choice("bass.approach", \.bass.approach, default: .off,
                doc: "a leading note in the bass one grid line before a new root (the half step or the scale tone below or above it), when `time.quantize` puts the root on a later line than the hit (chord changes on the beat or the bar) and that line is not before the hit; the event log marks it `\"leading\":true`"),
        .number("bass.home", \.bass.home, default: 1, range: 1...3,
                doc: "the tonic's bouncer is this many times larger than the others (`bass.bouncerRadius`), so the ball comes home more often"),
        .number("bass.radius", \.bass.radius, unit: "m", default: 33 * s, range: 0.05...0.6, defaultText: "0.22 (33 pt)",
                doc: "bass ball radius"),
        .number("bass.bouncerRadius", \.bass.bouncerRadius, unit: "m", default: 40 * s, range: 0.05...0.8,
                defaultText: "0.2667 (40 pt)", doc: "bouncer radius"),
        .pitch("bass.register", \.bass.register, default: 48, range: Limits.register,
               doc: "bass notes are degree roots folded into the octave from here"),
        .tone("bass.tone", \.bass.tone, default: "acoustic-bass", catalog: Tone.bassCatalog,
              lookup: { Tone.bass(named: $0) }, what: "bass tone", flag: "bass-tone", doc: "General MIDI instrument of the bass"),
        .number("bass.noteLength", \.bass.noteLength, unit: "s", default: 0.9, range: Limits.noteLength, doc: "bass note length"),
    ] + Setting.curve("bass.velocity", \.bass.velocity.quiet, \.bass.velocity.loud, \.bass.velocity.exponent,
                      unit: "× speed", default: (0, 1, 0.5),
                      quietDoc: "impact speed giving velocity 1, as a **fraction of the bass speed** (1 = a head-on hit)") + [
        .number("bass.pan", \.bass.pan, default: 0, range: -1...1, doc: "bass pan: −1 left, 0 centre, 1 right (MIDI CC10 and the sound)"),
        .integer("bass.level", \.bass.level, default: 78, range: 0...127,
                 doc: "bass channel volume, MIDI CC7 (78, −8.5 dB, puts the keys about 2 LU above the bass on `default`)"),
        .custom("bass.chords", type: "object", defaultText: "`{}` (every bouncer plays its degree's seventh chord)",
                accepted: "keys \"1\"–\"7\" (degrees); values: \"triad\", \"seventh\", \"ninth\" (the degree's own chord), a Roman numeral in the key (\"V/V\", \"♭VII\", \"iv\", \"ii7\", \"V7/vi\"), a chord symbol (\"B♭7\", \"Fm6\", \"Dsus4\"), or intervals above the degree's root (`[0, 4, 7, 10]` or \"0 4 7 10\", 2–5 tones)",
                doc: "the chord each bouncer plays; the bass plays the chord's root, the keys its tones. A numeral naming a degree the scale lacks (\"IV\" in minor pentatonic is fine, \"ii\" is not) is refused",
                setDefault: { $0.bass.chords = [:] },
                read: { json, preset, r throws(SessionError) in
                    preset.bass.chords = try readChords(json, r)
                }),
        .number("bass.kickAfter", \.bass.kickAfter, unit: "s", default: 8, range: 0.5...600,
                doc: "a bass ball that hits no bouncer for this long, or bounces between just two bouncers for 12 hits, is kicked in a fresh seeded direction"),

        .custom("keys.tones", type: "array of chord tones", defaultText: "one key per tone of the largest chord: `[1,2,3,4]` for the seventh chords, `[1,2,3]` when every chord is a triad",
                accepted: "1 root, 2 3rd, 3 5th, 4 7th, 5 9th; 1–5 distinct",
                doc: "the keys, left to right, and the chord tone each plays; a tone the active chord lacks (4 on a triad, 5 on a seventh chord) plays tone k − n (n = the chord's tone count) an octave up: a triad's 4th key is the root an octave above",
                setDefault: { $0.keys.tones = [] },
                read: { json, preset, r throws(SessionError) in
                    preset.keys.tones = try r.integerList(json, at: "keys.tones", range: 1...5, maximumCount: 5, what: "chord tone")
                }),
        .choice("keys.mode", \.keys.mode, default: .chord,
                doc: "chord: each key plays its chord tone; melodic: each strike moves a melody along the scale by the key's step (left to right from −2 to +2 scale steps: 3 keys −2 +1 +2, 4 keys −2 −1 +1 +2), turning back at the edges of the two octaves from `keys.register`; a note on the bar line or a strong beat (with `time.quantize` on) goes to the nearest tone of the active chord, other notes may be passing scale tones (event log `tone` 0)"),
        .choice("keys.voicing", \.keys.voicing, default: .folded,
                doc: "folded (the app's): root, 3rd, 5th folded into the octave from `keys.register`, 7th above the root; close: stacked from the folded root; open: root, 5th, then 3rd and 7th an octave up; smooth: each chord voiced to move the least total distance from the last (common tones stay), inside the two octaves from `keys.register`"),
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

        .custom("keys.pan", type: "string or number", defaultText: "`\"position\"`", accepted: "\"position\", or −1…1",
                doc: "keys pan: \"position\" spreads the keys left to right over one pan zone per key (up to five, a ninth chord's keys) from −0.8 to +0.8, each its own MIDI channel (2–5 for four keys, 2–6 for five) with a fixed CC10/CC8, key k of K in zone ⌊(k−1)·zones/K⌋; or one fixed place on channel 2",
                setDefault: { $0.keys.pan = .position },
                read: { json, preset, r throws(SessionError) in
                    if case .string = json {
                        _ = try r.choice(json, at: "keys.pan", choices: ["position"])
                        preset.keys.pan = .position
                    } else {
                        preset.keys.pan = .fixed(try r.number(json, at: "keys.pan", range: -1...1, accepted: "\"position\", or −1…1"))
                    }
                }),
        .integer("keys.level", \.keys.level, default: 127, range: 0...127, doc: "keys channel volume, MIDI CC7 (of every pan zone's channel)"),
        .block("keys.dribble", \.keys.isDribbleOn, default: false,
               doc: "the dribble gate: a ball striking a key again soon and softly is not heard again (the sounding note rings on)"),
        .number("keys.dribble.window", \.keys.dribble.window, unit: "s", default: 0.25, range: 0.01...2,
                doc: "a key hit by the same ball within this time of its last key hit is a dribble"),
        .integer("keys.dribble.velocity", \.keys.dribble.velocity, default: 40, range: 1...127,
                 doc: "a dribble softer than this velocity is dropped"),

        .block("second", \.second.isOn, default: false,
               doc: "a second voice (its own track, and its own MIDI channel: the first one the bass, the keys' pan zones and the drums leave free, MIDI channel K + 2 for K keys spread by position, 3 with the keys at a fixed pan): every key note doubled a diatonic third or sixth away (counted on the seven-degree parent scale; a degree a pentatonic or blues scale lacks moves on to the next scale tone further away), on its own tone; always a scale tone (a key note outside the scale, from a borrowed chord, is doubled a minor third or major sixth away)"),
        .custom("second.interval", type: "integer", defaultText: "-3", accepted: "-6, -3, 3, 6",
                doc: "the diatonic interval: 3 a third above, -3 a third below, 6 a sixth above, -6 a sixth below (the scale's own third or sixth from each note)",
                setDefault: { $0.second.interval = -3 },
                read: { json, preset, r throws(SessionError) in
                    let value = try r.integer(json, at: "second.interval", range: -6...6)
                    guard [-6, -3, 3, 6].contains(value) else {
                        throw r.fail("second.interval", "\(value) is not accepted; expected -6, -3, 3 or 6 (a sixth or a third, below or above)")
                    }
                    preset.second.interval = value
                }),
        .tone("second.tone", \.second.tone, default: "vibraphone", catalog: Tone.keysCatalog, lookup: { Tone.keys(named: $0) },
              what: "second tone", doc: "General MIDI instrument of the second voice"),
        .integer("second.level", \.second.level, default: 80, range: 0...127, doc: "second voice channel volume, MIDI CC7"),
        .block("melody", \.melody.isOn, default: false,
               doc: "a melody voice on top (its own track and MIDI channel, the first one the voices before it leave free), one note at a time: each key strike that sounds may add a note on the melody's pulse (`melody.shortest`): on the strike's grid line, or the next free one after the last note (a run), a note that would stand alone off the beat waiting for the next beat, a strike that would wait more than a beat adding nothing; where it goes is `melody.shape`; a note on the bar line or a strong beat goes to the nearest tone of the chord playing; in a phrase's last bar it walks to the nearest tonic and rests there (event log `melody`, `tone` 0)"),
        .tone("melody.tone", \.melody.tone, default: "flute", catalog: Tone.keysCatalog, lookup: { Tone.keys(named: $0) },
              what: "melody tone", flag: "melody-tone", doc: "General MIDI instrument of the melody (`melody` must be on)"),
        .pitch("melody.register", \.melody.register, default: 72, range: Limits.register,
               doc: "lowest note of the melody, which moves in the scale's tones up to an octave and a sixth above it; above the keys' notes, it is the top voice"),
        .number("melody.noteLength", \.melody.noteLength, unit: "s", default: 1.5, range: Limits.noteLength,
                doc: "longest melody note (each note ends at the next)"),
        .number("melody.shortest", \.melody.shortest, unit: "quarter notes", default: 0.5, range: 0.125...8,
                doc: "the melody's pulse: its notes sound on these lines, at most one a line (0.5: eighth notes)"),
        .integer("melody.phrase", \.melody.phrase, default: 4, range: 1...64,
                 doc: "bars in a melody phrase without a `form` (with one, `form.bars`)"),
        .choice("melody.shape", \.melody.shape, default: .places,
                doc: "how the line moves, each a rule applied to the strikes that reads its own part of the world: places (each key a height in the register, left low, right high: the line is drawn toward the key struck, by steps, with a leap from a strong beat, the same note again when it is there), chords (the struck key's chord tone nearest the last note: broken chords of the bass ball's harmony, a passing step between two off the beat), arpeggio (as chords, but a third off the beat is played, only a fourth or more passed to: the line outlines the chord), answer (a bar moves as places, the call; the next answers with the call's steps from where it stands, in its own rhythm and chords), lead (only one ball's strikes move it, the first to strike in each pair of bars: its bounce period is the rhythm, its flight a rest, the same key the same note, keys apart scale steps apart); on a strong beat a chord tone, at most three of one note in a row"),
        .integer("melody.level", \.melody.level, default: 100, range: 0...127, doc: "melody channel volume, MIDI CC7"),
        .number("melody.pan", \.melody.pan, default: 0, range: -1...1, doc: "melody pan −1…1"),
        .custom("voices", type: "array of objects", defaultText: "[]", accepted: Preset.DerivedVoice.accepted,
                doc: "derived voices, each doubling every note of the voice it `follows` (`\"keys\"`, the default, or `\"bass\"`) by its own rule: `interval` the scale's own interval (2…8 above, −2…−8 below, counted as for `second.interval`; a note outside the scale moves 2, 3, 5, 7, 9, 10 or 12 semitones) or `semitones` a fixed one (±1…24); each with its `name` (lower case: the event log's voice and the stem; capitalised, its MIDI track), `tone` (default vibraphone) and `level` (CC7, default 80), on the next free MIDI channel after the second voice; a live key change works each rule out again in the new key",
                setDefault: { $0.voices = [] },
                read: { json, preset, r throws(SessionError) in preset.voices = try Preset.DerivedVoice.readList(json, r) }),
        .integer("piano.count", \.piano.count, default: 4, range: Control.ballsRange, accepted: "0…1000 (must fit the area)",
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
        .boolean("piano.takeUp", \.piano.takeUp, default: false,
                 doc: "a ball whose key contact is slower than `keys.minimumSpeed` (too soft to be a hit: it neither sounds nor counts as one) is taken up and dropped again at once from a seeded spot: no dribbling, no ball resting on a key"),

        .block("percussion", \.percussion.isOn, default: false,
               doc: "a percussion voice on MIDI channel 10 (General MIDI drum kit), track \"Drums\""),
        drum("percussion.bassWalls", \.percussion.bassWalls, doc: "drum played when the bass ball strikes a wall of its area (velocity from the bass curve)"),
        drum("percussion.walls", \.percussion.walls, doc: "drum played when a piano ball strikes a side wall (velocity from the keys curve)"),
        drum("percussion.floor", \.percussion.floor, doc: "drum played when a piano ball strikes the floor between the keys"),
        .custom("percussion.stomp", type: "array of beats", defaultText: "[]", accepted: "beats 1…(beats per bar), distinct; [] for none",
                doc: "beats of every bar on which the stomp sounds (the polska's foot: [1, 3])",
                setDefault: { $0.percussion.stomp = [] },
                read: { json, preset, r throws(SessionError) in
                    if case .array(let items) = json, items.isEmpty { preset.percussion.stomp = []; return }
                    preset.percussion.stomp = try r.integerList(json, at: "percussion.stomp", range: 1...7, maximumCount: 7, what: "beat")
                }),
        .custom("percussion.stompDrum", type: "string", defaultText: "`\"kick\"`", accepted: "a drum name (list below the table)",
                doc: "the stomp's drum",
                setDefault: { $0.percussion.stompDrum = Drum.named("kick")! },
                read: { json, preset, r throws(SessionError) in
                    preset.percussion.stompDrum = Drum.named(try r.choice(json, at: "percussion.stompDrum", choices: Drum.catalog.map(\.name)))!
                }),
        .integer("percussion.stompVelocity", \.percussion.stompVelocity, default: 90, range: 1...127,
                 doc: "the stomp's velocity before accents"),
        .boolean("percussion.metronome", \.percussion.metronome, default: false,
                 doc: "a click on every beat: high wood block on beat 1, low wood block on the others"),
        .integer("percussion.level", \.percussion.level, default: 100, range: 0...127, doc: "drums channel volume, MIDI CC7"),
        .number("percussion.pan", \.percussion.pan, default: 0, range: -1...1, doc: "drums pan −1…1"),

        .block("form", \.form.isOn, default: false,
               doc: "phrases that return: at the first bar of each section the world (balls, harmony, queued notes, random streams) is saved, and a letter heard before puts the world back as it was at the start of its first section, so the section plays again; after the last section the form starts over (the tune played again)"),
        .integer("form.bars", \.form.bars, default: 8, range: 1...64, doc: "bars in a phrase: the length of each section"),
        .custom("form.sections", type: "string", defaultText: "`\"AABB\"`", accepted: "1…64 capital letters A–Z",
                doc: "the sections in order, a letter each (`\"AABA\"`, `\"AABB\"`, `\"ABAC\"`): a new letter goes on from where the world is, a letter heard before returns",
                setDefault: { $0.form.sections = "AABB" },
                read: { json, preset, r throws(SessionError) in
                    let text = try r.string(json, at: "form.sections", expected: "a string of section letters such as \"AABB\"")
                    guard (1...Preset.Form.maximumSections).contains(text.count),
                          text.allSatisfy({ Preset.Form.letters.contains($0) }) else {
                        throw r.fail("form.sections", "\"\(Quote.text(text))\" is not accepted; expected 1…\(Preset.Form.maximumSections) capital letters A–Z such as \"AABB\" or \"AABA\"")
                    }
                    preset.form.sections = text
                }),
        .integer("form.endings", \.form.endings, default: 0, range: 0...64,
                 doc: "bars of a second-time ending: the second of two sections of one letter in a row (the second A of \"AABB\") leaves the first for its last bars, nudged (by `form.variation`, at least 0.2) the first time and the same at every later second time; 0 for none"),
        .custom("form.transpose", type: "object", defaultText: "`{}`", accepted: "keys: section letters A–Z; values: semitones −12…12",
                doc: "a key per section letter: its sections play in the preset's key moved by these semitones (`{\"B\": 7}`: B on the dominant), changed at the first bar of each new letter the way a live key change is (a key the session cannot play, notes beyond MIDI 0–127, is not taken); a returning letter returns in its own key",
                setDefault: { $0.form.transpose = [:] },
                read: { json, preset, r throws(SessionError) in
                    preset.form.transpose = [:]
                    for (letter, value) in try r.object(json, at: "form.transpose", allowed: Preset.Form.letters.map(String.init)) {
                        preset.form.transpose[letter] = try r.integer(value, at: "form.transpose.\(letter)", range: -12...12)
                    }
                }),
        .number("form.variation", \.form.variation, default: 0, range: 0...1,
                doc: "how far a returning section is nudged (balls moved up to this fraction of their radius, bass direction turned, piano velocities shaken; seeded): 0 repeats exactly, 0.2 starts the same and drifts"),
        .integer("form.travel", \.form.travel, default: 0, range: -11...11,
                 doc: "a tune that travels: from time `form.travelFrom` through the sections on (the third unless set), each time through plays in the key of the one before moved by this many semitones (5: up a fourth each time, C F B♭ E♭ …; taken as the nearest move, −6…5), every letter keeping its own `form.transpose` from there, changed at its first bar line as a live key change is; an ending goes home; 0 for none"),
        .integer("form.travelFrom", \.form.travelFrom, default: 3, range: 2...64,
                 doc: "the time through the sections (from 1) that `form.travel` first moves: 3, the third; a later one lets the tune be heard at home for longer (a short form at a slow tempo comes round often)"),
        .choice("form.secondTime", \.form.secondTime, default: .same,
                doc: "what a second time (the second of two sections of one letter in a row, the second A of \"AABB\") puts back from the second time through the tune on (the first time through, it is as its first time): `same`, all of it; `new-changes`, all of it, and then the bass ball leaves the first bar line in a new direction (seeded, from the form's own random stream): the piano balls' strikes, the chord at its first bar line and the queued notes return, and the ball strikes new changes under them"),
        .integer("form.approach", \.form.approach, default: 3, range: 1...15,
                 doc: "with `form.cadence`: how many bars before a section's last bar the bass ball turns toward the bouncer of the chord that leads home (V, vii°, or the mode's own) and, once it strikes it, holds that chord until the tonic; at most the section's bars − 2 (2: the dominant sounds for about the bar before the tonic, 3: for about two)"),
        .choice("form.intro", \.form.intro, default: .none,
                doc: "how the session begins: `none`, every ball plays from the start; `bass`, the bass ball alone for the first phrase (the piano balls move as ever, their strikes are heard from the second phrase; a stomp or metronome keeps the beat); `one-by-one`, the bass ball first, then one more piano ball heard each bar"),
        .number("form.ending", \.form.ending, unit: "s", default: 0, range: 0...Preset.Form.longestRing,
                doc: "an ending: the session ends at the end of a phrase (the first at or after `--duration` or `--bars`, which then mean \"at least\"), its last bar on the tonic chord (home key, I's root in the bass at its bar line, every bouncer heard as I), and the notes sounding at the end ring this many seconds before their note-offs; 0 for none: the session stops where its duration cuts it"),
        .boolean("form.cadence", \.form.cadence, default: false,
                 doc: "every section's last bar is on the tonic chord, as an ending's is: from one beat before it every bouncer is heard as I's, and at its bar line I's root sounds in the bass, loud (in the section's own key); a melody walks home to the tonic in that bar"),
        .custom("scenes", type: "array of objects", defaultText: "[]", accepted: Preset.Scene.accepted,
                doc: "live controls at a bar line: from the first step at or after the line of `bar` (1-based; of section `section` when given, counted in `form.bars`), each control the entry sets takes effect as if it came over OSC, in the order gravity, speed, kick, drop, tempo, key, level, balls, lift (`{\"keys\": 90}`: a voice's CC7, by its event-log name; `balls`: piano balls in play, 0…`piano.count`, the others leave the world and one coming back is dropped; `lift`: the piano ball longest without a key hit dropped again from the top), and is logged as a `control` line (a replay takes them from the log); bar lines follow tempo changes",
                setDefault: { $0.scenes = [] },
                read: { json, preset, r throws(SessionError) in preset.scenes = try Preset.Scene.readList(json, r) }),

        .file("sound.soundFont", \.sound.soundFont,
              doc: "SoundFont used when no `--soundfont` or `CLUMSY_SOUNDFONT` is given; a relative path is relative to the preset file's folder"),
        .number("sound.gain", \.sound.gain, default: 0.5, range: 0...2, flag: "gain",
                doc: "master gain of the synthesizer (above 1, many notes at once may clip)"),
        .number("sound.liveGain", \.sound.liveGain, unit: "dB", default: 0, range: -24...24,
                doc: "dB added to the synthesizer's gain when playing live, where no mastering pass can look ahead; each bundled preset's is measured so that live play reaches -16 LUFS, or stops 1 dB under full scale (Benchmarks/loudness.py --calibrate)"),
        .custom("sound.loudness", type: "number or `\"off\"`", unit: "LUFS", defaultText: "-16", accepted: "-40…0, or \"off\"",
                flag: "loudness", valueName: "LUFS|off",
                doc: "integrated loudness of an audio render (one static gain, EBU R128, then the true-peak limiter); off writes the synthesizers' level as rendered",
                setDefault: { $0.sound.loudness = -16 },
                read: { json, preset, r throws(SessionError) in
                    if case .string = json {
                        _ = try r.choice(json, at: "sound.loudness", choices: ["off"])
                        preset.sound.loudness = nil
                    } else {
                        preset.sound.loudness = try r.number(json, at: "sound.loudness", range: -40...0, accepted: "-40…0 LUFS, or \"off\"")
                    }
                },
                parse: { text, preset throws(SessionError) in
                    if text.lowercased() == "off" { preset.sound.loudness = nil; return }
                    guard let value = Double(text), value.isFinite else {
                        throw .usage("--loudness \(Quote.text(text)) is not accepted; expected a loudness in LUFS (-40…0) or off")
                    }
                    guard (-40...0).contains(value) else {
                        throw .usage("--loudness \(Format.plain(value)) is out of range; accepted: -40…0 LUFS, or off")
                    }
                    preset.sound.loudness = value
                }),
        .number("sound.truePeak", \.sound.truePeak, unit: "dBTP", default: -1, range: -9...0, flag: "true-peak",
                doc: "true-peak ceiling of an audio render, kept by a look-ahead limiter (needs the loudness on)"),
        .choice("sound.bitDepth", \.sound.bitDepth, default: .standard, flag: "bit-depth",
                doc: "sample format of WAV and FLAC renders: 16-bit (TPDF-dithered), 24-bit, or 32-bit float (WAV only); Ogg ignores it"),
        .block("sound.filter", \.sound.isFilterOn, default: false, doc: "low-pass filter on every note"),
        .number("sound.filter.cutoff", \.sound.filterValues.cutoff, unit: "Hz", default: 1500, range: LowPassFilter.cutoffRange,
                flag: "filter", takesOff: true, doc: "low-pass filter cutoff"),
        .number("sound.filter.resonance", \.sound.filterValues.resonance, unit: "dB", default: 0, range: LowPassFilter.resonanceRange,
                flag: "resonance", doc: "low-pass resonance"),
        .block("sound.delay", \.sound.isDelayOn, default: true, doc: "feedback delay on the mix"),
        .secondsOrNote("sound.delay.time", \.sound.delayValues.time, note: \.sound.delayNote, default: 0.375,
                       range: Delay.timeRange, flag: "delay",
                       doc: "delay time, in seconds or as a note value at the session's tempo (\"3/16\": a dotted eighth), so the echoes stay on the grid when the tempo changes"),
        .custom("sound.delay.note", type: "string", defaultText: "none", accepted: "a note value n/d (1…32 / 1, 2, 4, 8, 16, 32), such as \"3/16\"",
                doc: "the delay time as a note value, as `sound.delay.time` also takes it (kept for presets that wrote it here); it replaces `sound.delay.time` unless `--delay` gives seconds, and must come to \(Format.plain(Delay.timeRange.upperBound)) s or less at the session's tempo",
                setDefault: { $0.sound.delayNote = nil },
                read: { json, preset, r throws(SessionError) in
                    let text = try r.string(json, at: "sound.delay.note", expected: "a note value such as \"3/16\"")
                    guard let note = NoteValue.wholeNotes(text) else {
                        throw r.fail("sound.delay.note", "\"\(Quote.text(text))\" is not accepted; expected \(NoteValue.accepted)")
                    }
                    preset.sound.delayNote = note
                }),
        .number("sound.delay.feedback", \.sound.delayValues.feedback, default: 0.3, range: Delay.feedbackRange,
                flag: "feedback", doc: "delay feedback: each echo's level relative to the one before"),
        .number("sound.delay.mix", \.sound.delayValues.mix, default: 0.2, range: Delay.mixRange, flag: "delay-mix",
                doc: "delay wet mix"),
        .block("sound.reverb", \.sound.isReverbOn, default: true, doc: "reverb"),
        .number("sound.reverb.level", \.sound.reverbValues.level, default: 0.25, range: Reverb.parameterRange, flag: "reverb",
                takesOff: true, doc: "reverb level"),
        .number("sound.reverb.room", \.sound.reverbValues.roomSize, default: 0.5, range: Reverb.parameterRange, flag: "room",
                doc: "reverb room size"),
    ]

    /// A drum name from `Drum.catalog`, or `"none"`.
    private static func drum(_ path: String, _ keyPath: WritableKeyPath<Preset, Drum?> & Sendable, doc: String) -> Setting {
        .custom(path, type: "string", defaultText: "`\"none\"`",
                accepted: "`none` or a drum name (list below the table)", doc: doc,
                setDefault: { $0[keyPath: keyPath] = nil },
                read: { json, preset, r throws(SessionError) in
                    let name = try r.choice(json, at: path, choices: ["none"] + Drum.catalog.map(\.name))
                    preset[keyPath: keyPath] = Drum.named(name)
                })
    }

    /// Reads `bass.chords`: degree → chord specification.
    private static func readChords(_ json: JSONValue, _ r: FieldReader) throws(SessionError) -> [Int: ChordSpecification] {
        let degrees = (1...7).map(String.init)
        var chords: [Int: ChordSpecification] = [:]
        for (key, value) in try r.object(json, at: "bass.chords", allowed: degrees) {
            let path = "bass.chords.\(key)"
            let specification: ChordSpecification
            switch value {
            case .array(let items):
                var words: [String] = []
                for (index, item) in items.enumerated() {
                    words.append(String(try r.integer(item, at: "\(path)[\(index)]", range: 0...24)))
                }
                do {
                    specification = .intervals(try ChordSpecification.parseIntervals(words.joined(separator: " "), text: "[\(words.joined(separator: ", "))]"))
                } catch {
                    throw r.fail(path, "\(error)")
                }
            default:
                let text = try r.string(value, at: path, expected: "a chord: \"seventh\", a numeral (\"V/V\"), a symbol (\"Bb7\") or intervals ([0, 4, 7])")
                switch text.lowercased() {
                case "triad": specification = .diatonic(toneCount: 3)
                case "seventh": specification = .diatonic(toneCount: 4)
                case "ninth": specification = .diatonic(toneCount: 5)
                default:
                    do {
                        specification = try ChordSpecification(parsing: text)
                    } catch {
                        throw r.fail(path, "\(error); accepted: \"triad\", \"seventh\", \"ninth\", a Roman numeral (\"V/V\", \"♭VII\", \"iv\"), a chord symbol (\"Bb7\", \"Fm6\") or intervals ([0, 4, 7])")
                    }
                }
            }
            if case .intervals(let intervals) = specification, intervals.count > 5 {
                throw r.fail(path, "\(intervals.count) tones; the keys play at most 5 chord tones")
            }
            chords[Int(key)!] = specification
        }
        return chords
    }

    /// The setting at `path`, if any.
    public static func setting(at path: String) -> Setting? { all.first { $0.path == path } }

    /// The setting whose flag is `flag` (without dashes), if any.
    public static func setting(flag: String) -> Setting? { all.first { $0.flag == flag } }

    /// Nil when `path` names a field or a group of fields (`piano`); else what a message adds
    /// after "no such preset field": the field meant (`key.mode` → `key.scale`) or the nearest.
    public static func unknownFieldHint(_ path: String) -> String? {
        guard setting(at: path) == nil, children(of: path).isEmpty else { return nil }
        return FieldReader.otherNames[path].map { " (did you mean \($0)?)" } ?? Suggestion.didYouMean(path, in: all.map(\.path))
    }

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
