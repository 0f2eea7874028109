// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Performance
import Physics
import Presets
import Theory
import Vocabulary

/// A session resolved: everything downstream (the simulator, the performer, every sink) reads
/// this value, never the preset.
public struct SessionPlan: Sendable {
    /// The preset's name (summaries, the MIDI file's text).
    public var name: String
    /// The preset's file (messages, the inputs no output may overwrite, the plan digest).
    public var source: String
    /// Simulated length, seconds.
    public var duration: Double
    /// Seed of every random choice.
    public var seed: UInt64
    /// Key and scale.
    public var key: Key
    /// Gravity on the piano balls at the start, m/s² (the world's: one value, not a copy).
    public var gravity: Double { world.gravity }
    /// Bass ball speed at the start, m/s (the world's).
    public var speed: Double { world.bassSpeed }
    /// Geometry.
    public var layout: Layout
    /// The physics world.
    public var world: WorldConfiguration
    /// Tempo, meter, grid and feel.
    public var clock: Clock
    /// Accents and velocity floor.
    public var feel: Feel
    /// The voices table.
    public var voices: VoiceTable
    /// The harmony and the sources of the notes.
    public var performer: PerformerConfiguration
    /// Chord tone (1…4) of each key, left to right.
    public var keyTones: [Int]
    /// The preset's `bass.chords` (degree → chord), read again in a new key at a live key change.
    public var chordSpecifications: [Int: ChordSpecification]
    /// The session's rules.
    public var rules: Rules
    /// Effects (SoundFont, filter, delay, reverb).
    public var sound: SoundPlan
    /// True for crowds (more than `Configuration.crowdSize` piano balls).
    public var isCrowded: Bool
    /// Number of fixed timesteps.
    public var stepCount: Int64
    /// The smallest gap a Chipmunk step must not jump, metres (sub-steps after a live change of
    /// gravity or speed: `substeps(gravity:speed:)`).
    public var smallestGap: Double
    /// The form (sections that return), or nil: every bar new.
    public var form: FormPlan?
    /// The preset's scenes by bar line (`Scenes.swift`): live controls at bar lines.
    public var scenes: [SceneCue] = []
    /// The ending (the last bar on I, the last notes ringing), or nil: the session stops where its duration cuts it.
    public var ending: EndingPlan?
    /// When each ball is first heard (`form.intro`), or nil: all from the start.
    public var intro: IntroPlan?

    /// The session's rules: when the bass ball is kicked and piano balls are dropped again.
    public struct Rules: Sendable {
        /// Seconds without a bouncer hit before the bass ball is kicked.
        public var kickAfter: Double
        /// Seconds without a key hit before a piano ball is dropped again.
        public var redropAfter: Double
        /// Seconds a piano ball may lie still before it is dropped again.
        public var restAfter: Double
        /// Piano ball radius, metres.
        public var pianoRadius: Double
        /// Whether piano balls collide with each other.
        public var pianoBallsCollide: Bool
        /// Whether a piano ball whose key contact is too soft to be a hit is dropped again at once.
        public var takesUp = false
    }

    /// The MIDI channels (0-based) of the keys' pan zones, left to right, when `keys.pan` is
    /// "position": one per key up to five (a ninth chord's five keys), MIDI channels 2–6 (channel
    /// 1 is the bass's, 10 the drums'; a derived voice takes the next free one, see `freeChannel`).
    public static let keysZoneChannels = [1, 2, 3, 4, 5]

    /// The lowest MIDI channel (0-based) no row of `rows` plays on, never 9 (the GM drum channel).
    static func freeChannel(after rows: [Voice]) -> Int {
        let taken = Set(rows.flatMap { $0.channels.map(\.channel) } + [9])
        return (0..<16).first { !taken.contains($0) } ?? 15
    }

    /// Resolves a configuration (the preset with the flags applied).
    init(configuration c: Configuration) {
        let preset = c.preset
        let time = preset.time
        let percussion = preset.percussion
        name = preset.name
        source = preset.source
        duration = c.duration
        seed = c.seed
        key = preset.key
        layout = c.layout
        world = c.world
        clock = Clock(tempo: preset.tempo, meter: preset.meter, grid: time.quantize, strength: time.strength, swing: time.swing)
        feel = Feel(downbeatAccent: time.downbeatAccent, strongAccent: time.strongAccent, velocityFloor: time.velocityFloor)
        feel.swell = time.swell
        feel.phraseBars = preset.form.isOn ? preset.form.bars : preset.melody.phrase
        var rows = [
            // The bass curve is written in fractions of the bass speed.
            Voice(name: "Bass", channel: 0, tone: c.bassTone, curve: preset.bass.velocity.curve.scaled(by: preset.speed),
                  noteLength: preset.bass.noteLength, level: preset.bass.level, pan: .fixed(preset.bass.pan), source: .bassBall),
            Voice(name: "Keys", channel: 1, tone: c.keysTone, curve: preset.keys.velocity.curve,
                  noteLength: preset.keys.noteLength, level: preset.keys.level, pan: preset.keys.pan, source: .pianoBalls),
        ]
        // Keys spread by position play on one channel per pan zone: MIDI channels 2–5 for four
        // keys, 2–6 for five.
        rows[1].spread(over: Self.keysZoneChannels, keyCount: c.layout.keys.count)
        rows += Self.derivedRows(preset, after: rows)
        if preset.melody.isOn {
            var melody = Voice(name: "Melody", channel: Self.freeChannel(after: rows), tone: Tone.keys(named: preset.melody.tone)!,
                               curve: preset.keys.velocity.curve, noteLength: preset.melody.noteLength, level: preset.melody.level,
                               pan: .fixed(preset.melody.pan), source: .melody)
            melody.isMonophonic = true
            rows.append(melody)
        }
        var drums: PercussionPlan?
        if percussion.isOn {
            drums = PercussionPlan(bassWalls: percussion.bassWalls, walls: percussion.walls, floor: percussion.floor,
                                   stompBeats: percussion.stomp, stomp: percussion.stompDrum,
                                   stompVelocity: percussion.stompVelocity, metronome: percussion.metronome)
            rows.append(Voice(name: "Drums", channel: 9, tone: Drum.kit, curve: preset.keys.velocity.curve, noteLength: 0.2,
                              level: percussion.level, pan: .fixed(percussion.pan), source: .percussion))
        }
        voices = VoiceTable(rows)
        var performer = c.performer
        performer.chordChange = time.chordChange
        performer.endsNonChordTones = time.endNonChordTones
        performer.dribble = preset.keys.isDribbleOn ? preset.keys.dribble : nil
        performer.percussion = drums ?? PercussionPlan()
        performer.pianoBalls = preset.piano.count
        self.performer = performer
        world.recordsWallContacts = drums?.needsWallContacts ?? false
        keyTones = preset.keys.tones
        chordSpecifications = preset.bass.chords
        rules = Rules(kickAfter: preset.bass.kickAfter, redropAfter: preset.piano.redropAfter, restAfter: preset.piano.restAfter,
                      pianoRadius: preset.piano.radius, pianoBallsCollide: preset.piano.collide)
        rules.takesUp = preset.piano.takeUp
        sound = SoundPlan(c.sound)
        isCrowded = c.isCrowded
        stepCount = c.stepCount
        smallestGap = Configuration.smallestGap(preset)
        form = preset.form.isOn
            ? FormPlan(bars: preset.form.bars, letters: preset.form.sections, variation: preset.form.variation) : nil
        form?.endings = preset.form.endings
        form?.travel = preset.form.travel
        form?.travelFrom = preset.form.travelFrom
        form?.approach = preset.form.approach
        form?.secondTime = FormPlan.SecondTime(rawValue: preset.form.secondTime.rawValue) ?? .same
        form?.cadence = preset.form.cadence
        ending = EndingPlan(preset: preset, duration: c.duration)
        intro = IntroPlan(preset: preset)
        if var plan = form {
            let letters = Array(plan.letters)
            for (letter, semitones) in preset.form.transpose {
                // A letter the form does not use changes nothing.
                guard let first = letters.firstIndex(of: Character(letter)) else { continue }
                plan.transpositions[plan.sections[first]] = semitones
            }
            form = plan
        }
        scenes = Self.sceneCues(preset)
    }

    /// The derived voices' rows: the second voice (`second`), then each of the `voices` list, in
    /// order; each on its own channel, the first one the rows before it (and the drums) leave free.
    static func derivedRows(_ preset: Preset, after rows: [Voice]) -> [Voice] {
        var list = preset.voices
        if preset.second.isOn {
            list.insert(Preset.DerivedVoice(name: "second", follows: .keys, rule: .diatonic(preset.second.interval),
                                            tone: preset.second.tone, level: preset.second.level), at: 0)
        }
        var all = rows
        for derived in list {
            // The first row played by the source it follows (the table starts with the bass and the keys).
            let source: Voice.Source = derived.follows == .bass ? .bassBall : .pianoBalls
            let row = all.firstIndex { $0.source == source }!
            let from = VoiceID(rawValue: row), followed = all[row]
            var voice = Voice(name: derived.trackName, channel: freeChannel(after: all), tone: Tone.keys(named: derived.tone)!,
                              curve: followed.curve, noteLength: followed.noteLength, level: derived.level, pan: .fixed(0), source: .derived)
            voice.derived = .init(from: from, rule: derived.rule, key: preset.key)
            all.append(voice)
        }
        return Array(all[rows.count...])
    }

    /// Chipmunk sub-steps per timestep under `gravity` (m/s²) with the bass ball at `speed` (m/s).
    public func substeps(gravity: Double, speed: Double) -> Int {
        Configuration.substeps(timestep: world.timestep, gravity: gravity, speed: speed,
                               height: layout.pianoArea.height, smallestGap: smallestGap)
    }

    /// Chipmunk's sleeping under `gravity` (m/s²) with `substeps` sub-steps a timestep
    /// (`Configuration.crowdSleeping`): a crowd's, when one of its balls can fall asleep.
    public func sleepTimeThreshold(gravity: Double, substeps: Int) -> Double? {
        guard isCrowded else { return nil }
        return Configuration.crowdSleeping(restAfter: rules.restAfter, timestep: world.timestep, gravity: gravity, substeps: substeps)
    }
}
