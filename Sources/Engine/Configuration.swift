// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Geometry
import Performance
import Physics
import Presets
import Text
import Theory
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// A session fully resolved: every value validated, units explicit, ready to simulate.
struct Configuration: Sendable {
    /// The preset with the overrides applied.
    public var preset: Preset
    /// Simulated length of the session, seconds.
    public var duration: Double
    /// The seed in use.
    public var seed: UInt64
    /// Geometry.
    public var layout: Layout
    /// The physics world.
    public var world: WorldConfiguration
    /// The note mapping.
    public var performer: PerformerConfiguration
    /// Bass tone.
    public var bassTone: Tone
    /// Keys tone.
    public var keysTone: Tone
    /// Effects after flags (the preset's sound block with the flags applied).
    public var sound: Preset.Sound { preset.sound }

    /// Resolves `preset` with `overrides` for a session of `duration` seconds. `checksScenes`:
    /// refuse the first of `sceneProblems()` (`clumsy validate` asks for all of them apart).
    public init(preset: Preset, overrides: Overrides = Overrides(), duration: Double, checksScenes: Bool = true) throws(SessionError) {
        var preset = try preset.assigning(overrides.assignments.map { ($0.path, $0.value) }).applying(flags: overrides.flags, dry: overrides.isDry)
        try Self.keepPlayedBouncers(of: &preset, keyFlagged: overrides.flags["key"] != nil || overrides.flags["mode"] != nil)
        if let note = preset.sound.delayNote {
            // A note value at the session's tempo: the echoes stay on the grid. `--delay` in
            // seconds cleared it.
            let seconds = note * 4 * 60 / preset.tempo
            let longest = Delay.timeRange.upperBound
            guard seconds <= longest else {
                let comes = "comes to \(Format.plain(seconds)) s at \(Format.plain(preset.tempo)) bpm; the delay takes at most \(Format.plain(longest)) s"
                if let flag = overrides.flags["delay"] { throw .usage("--delay \(Quote.text(flag)) \(comes)") }
                throw .preset(file: preset.source, field: "sound.delay.time", message: "the note value \(comes)")
            }
            preset.sound.delayValues.time = seconds
        }
        let asked = overrides.bars.map { Double($0) * Clock(tempo: preset.tempo, meter: preset.meter).barSeconds } ?? duration
        // A replay runs exactly the steps its live run ran: none, when it was stopped before its first.
        guard Limits.duration.contains(asked) || (overrides.isExact && asked == 0) else {
            let what = overrides.bars.map { "--bars \($0) (\(Format.plain(asked)) s)" } ?? "--duration \(Format.plain(asked))"
            throw .usage("\(what) is out of range; accepted: \(Limits.text(Limits.duration, unit: "s"))")
        }
        let duration = EndingPlan.length(of: &preset, asked: asked, exactly: overrides.isExact)
        let chords = try Self.resolveChords(of: &preset)
        self.preset = preset
        self.duration = duration
        self.seed = preset.seed
        self.bassTone = Tone.bass(named: preset.bass.tone)!
        self.keysTone = Tone.keys(named: preset.keys.tone)!
        self.layout = try Layout.make(preset, seed: preset.seed)

        var launch = SplitMix64(seed: preset.seed, stream: RandomStream.launch.rawValue)
        let diagonal = launch.below(4)
        let d = 0.7071067811865476
        let direction = Vector(diagonal & 1 == 0 ? d : -d, diagonal & 2 == 0 ? d : -d)

        let crowded = preset.piano.count > Self.crowdSize
        let substeps = Self.substeps(timestep: preset.timestep, gravity: preset.gravity, speed: preset.speed,
                                     height: layout.pianoArea.height, smallestGap: Self.smallestGap(preset))
        world = WorldConfiguration(
            bassArea: layout.bassArea, pianoArea: layout.pianoArea, bouncers: layout.bouncers, keys: layout.keys,
            bassStart: layout.bassStart, bassVelocity: direction * preset.speed, bassRadius: preset.bass.radius,
            bassSpeed: preset.speed, pianoStarts: layout.pianoStarts, pianoRadius: preset.piano.radius,
            pianoRestitution: preset.piano.restitution, pianoFriction: preset.piano.friction,
            gravity: preset.gravity, timestep: preset.timestep, substeps: substeps,
            iterations: crowded ? 5 : 10,
            sleepTimeThreshold: crowded ? Self.crowdSleeping(restAfter: preset.piano.restAfter, timestep: preset.timestep,
                                                             gravity: preset.gravity, substeps: substeps) : nil)
        world.pianoBallsCollide = preset.piano.collide
        world.fillers = layout.fillers
        if crowded {
            world.spatialHash = .init(cellSize: 4 * preset.piano.radius, cells: 10 * (preset.piano.count + Self.crowdSize))
        }
        guard world.problems.isEmpty else { throw .software("world configuration rejected: \(world.problems)") }

        performer = PerformerConfiguration(
            key: preset.key, bassBase: preset.bass.register, keysBase: preset.keys.register, voicing: preset.keys.voicing,
            bassMinimumSpeed: 0, keysMinimumSpeed: preset.keys.minimumSpeed, chords: chords)
        performer.approach = preset.bass.approach
        if preset.keys.mode == .melodic { performer.melodicSteps = PerformerConfiguration.melodicSteps(keys: preset.keys.tones.count) }
        if preset.melody.isOn {
            performer.melody = MelodyPlan(phraseBars: preset.form.isOn ? preset.form.bars : preset.melody.phrase,
                                          shortest: preset.melody.shortest, keys: preset.keys.tones.count,
                                          shape: preset.melody.shape)
            performer.melodyBase = preset.melody.register
            // Its register is at most C7 (the settings table), so its 21 semitones stay in MIDI 0…127.
        }
        // Every note must be a valid MIDI note.
        if let outside = performer.registerOutsideMIDI(tones: preset.keys.tones) {
            throw .preset(file: preset.source, field: outside.field, message: outside.message)
        }
        if checksScenes, let problem = sceneProblems().first { throw problem }
    }

    /// The chord of each degree's bouncer in the session's key (`bass.chords`, else the scale's
    /// own seventh chord), and the keys' tones when the preset leaves them to the chords (one key
    /// per tone of the largest chord a switched-on bouncer plays). A numeral naming a degree the
    /// scale lacks is refused with its field path.
    static func resolveChords(of preset: inout Preset) throws(SessionError) -> [Chord] {
        let chords: [Chord]
        switch Self.chords(in: preset.key, specifications: preset.bass.chords) {
        case .success(let resolved): chords = resolved
        case .failure(let failure): throw .preset(file: preset.source, field: failure.field, message: failure.message)
        }
        if preset.keys.tones.isEmpty {
            let largest = preset.bass.bouncers.map { chords[$0 - 1].intervals.count }.max() ?? 4
            preset.keys.tones = Array(1...min(PerformerConfiguration.maximumTone, max(1, largest)))
        }
        return chords
    }

    /// The chord of each degree 1…7 in `key` (index 0 = degree 1) from a preset's `bass.chords`:
    /// the scale's own seventh chord where none is given, a numeral or intervals read in `key`, a
    /// chord symbol as written. Used at setup and for a live key change. A numeral naming a degree
    /// the scale lacks fails with its field path (`bass.chords.N`).
    public static func chords(in key: Key, specifications: [Int: ChordSpecification]) -> Result<[Chord], ChordFailure> {
        var chords: [Chord] = []
        for degree in ScaleDegree.all {
            let chord: Chord
            switch specifications[degree.number] {
            case nil: chord = key.scaleChord(on: degree, toneCount: 4)
            case .diatonic(let count)?: chord = key.scaleChord(on: degree, toneCount: count)
            case let specification?:
                do {
                    chord = try specification.chord(in: key, degree: degree)
                } catch {
                    return .failure(ChordFailure(field: "bass.chords.\(degree.number)", message: "\(error) (in \(key))"))
                }
            }
            chords.append(chord)
        }
        return .success(chords)
    }

    /// Why a degree's chord cannot be built in a key: the preset field and a sentence.
    public struct ChordFailure: Error, Sendable, Equatable {
        /// The field path, `bass.chords.N`.
        public var field: String
        /// What is wrong, naming the key.
        public var message: String
    }

    /// The smallest gap of `preset` that a Chipmunk step must not jump, metres: a ball's radius
    /// where balls meet balls, else a piano ball's radius plus a key's half thickness (12.5 points).
    static func smallestGap(_ preset: Preset) -> Double {
        let keyHalfThickness = 12.5 * Preset.metresPerPoint
        let pianoGap = preset.piano.collide ? preset.piano.radius : preset.piano.radius + keyHalfThickness
        return min(preset.bass.radius, preset.bass.bouncerRadius, pianoGap, keyHalfThickness * 2)
    }

    /// Chipmunk sub-steps per timestep of `timestep` seconds under `gravity` (m/s²) with the bass
    /// ball at `speed` (m/s), in a piano area `height` metres high, so that no ball jumps
    /// `smallestGap` in one Chipmunk step (also used when a live control changes gravity or speed).
    static func substeps(timestep: Double, gravity: Double, speed: Double, height: Double, smallestGap: Double) -> Int {
        let fastest = max(speed, WorldConfiguration.pianoSpeedLimit(gravity: gravity, height: height))
        return WorldConfiguration.substeps(timestep: timestep, fastestSpeed: fastest, smallestRadius: smallestGap)
    }

    /// Switches off the bouncers of degrees the scale does not play: a pentatonic or blues scale
    /// (five degrees) leaves five bouncers. None left is an error: of `--key`/`--mode` when one
    /// of them chose the key, else of the preset's `bass.bouncers`.
    static func keepPlayedBouncers(of preset: inout Preset, keyFlagged: Bool) throws(SessionError) {
        let played = Set(preset.key.degrees.map(\.number))
        guard played.count < 7 else { return }
        let kept = preset.bass.bouncers.filter { played.contains($0) }
        guard !kept.isEmpty else {
            let message = "\(preset.key) has no degree among the bouncers \(preset.bass.bouncers); its degrees are \(played.sorted())"
            if keyFlagged { throw .usage("--mode: " + message) }
            throw .preset(file: preset.source, field: "bass.bouncers", message: message)
        }
        preset.bass.bouncers = kept
    }

    /// Piano ball count above which a session is tuned for crowds: Chipmunk's sleeping (where
    /// a ball can fall asleep, `crowdSleeping`) and spatial hash, 5 solver iterations, and 128
    /// synthesizer voices instead of 256.
    public static let crowdSize = 64

    /// Seconds a crowd's ball lies idle before Chipmunk puts it to sleep.
    static let crowdSleep = 0.5

    /// Chipmunk's sleeping for a crowd (`crowdSleep`), or nil when no ball can fall asleep:
    /// when every ball Chipmunk finds idle is taken up by the rest rule first. Chipmunk calls a
    /// ball idle when its speed is at most gravity × one sub-step; below the rule's still speed
    /// (`Simulator.stillSpeed`) an idle ball is a still one, and the rule, looking every
    /// `Simulator.ruleInterval` steps, drops it again within `restAfter` and three looks, before
    /// `crowdSleep`. Then sleeping would only cost its bookkeeping for every body in every sub-step
    /// (8 % of the swarm's instructions), and the session is the same without it.
    static func crowdSleeping(restAfter: Double, timestep: Double, gravity: Double, substeps: Int) -> Double? {
        let look = Double(Simulator.ruleInterval) * timestep
        let idleSpeed = gravity * timestep / Double(max(1, substeps))
        let takenUpFirst = restAfter + 3 * look < crowdSleep && idleSpeed < Simulator.stillSpeed
        return takenUpFirst ? nil : crowdSleep
    }

    /// True when the session has more than `crowdSize` piano balls.
    public var isCrowded: Bool { preset.piano.count > Self.crowdSize }

    /// Number of fixed timesteps in the session: at least one, except in the replay of a live
    /// run stopped before its first step (a duration of exactly 0).
    public var stepCount: Int64 { Self.stepCount(duration, timestep: preset.timestep) }

    /// Fixed timesteps in `duration` seconds: at least one unless the session is empty.
    static func stepCount(_ duration: Double, timestep: Double) -> Int64 {
        duration == 0 ? 0 : max(1, Int64((duration / timestep).rounded()))
    }
}
