// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

/// What shapes the melody voice: its phrases, its pace and its shape (`melody` in a preset).
public struct MelodyPlan: Sendable, Hashable {
    /// Bars in a phrase: the melody walks home to the tonic in its last bar (a form's `bars`, else 4).
    public var phraseBars: Int
    /// The melody's pulse, in quarter notes (0.5: an eighth): notes sound on its lines, at most
    /// one a line.
    public var shortest: Double
    /// Number of keys (K): the keys are K places, or K chord tones, or K steps apart.
    public var keys: Int
    /// How the line moves (`MelodyShape`).
    public var shape: MelodyShape

    /// A plan with phrases of `phraseBars` bars, notes at most every `shortest` quarter notes.
    public init(phraseBars: Int, shortest: Double, keys: Int, shape: MelodyShape = .places) {
        self.phraseBars = max(1, phraseBars)
        self.shortest = shortest
        self.keys = max(1, keys)
        self.shape = shape
    }

    /// The melody's register: from its base up an octave and a sixth (MIDI notes).
    public static func register(base: Pitch) -> ClosedRange<Int> { base.midi...(base.midi + 21) }
}

/// The melody's player: a tune on top, one voice, moved by the piano balls' strikes.
///
/// Rhythm: a key strike that sounds may add a note on the melody's pulse (`MelodyPlan.shortest`):
/// on the strike's grid line, or the next free line when the one before it is taken (a run of
/// notes, each a strike); a note that would stand alone off the beat waits for the next beat,
/// so runs start on a beat and single notes sound on one. A strike that would wait longer than
/// a beat adds nothing.
///
/// Pitch: the shape (`MelodyShape`) turns the strike into a target on the scale; a note on a
/// strong beat then goes to the nearest tone of the chord playing (itself when it is one). The
/// same note may sound again, at most twice in a row (a third time it moves to a neighbour).
/// In a phrase's last bar the melody walks to the nearest tonic and rests there (later strikes
/// in that bar add nothing), so every phrase ends on the tonic. The voice is monophonic: each
/// note ends the one before (`Voice.isMonophonic`).
struct MelodyPlayer: Player {
    let voice: VoiceID
    /// Velocity from impact speed (the keys').
    let curve: VelocityCurve
    let plan: MelodyPlan
    /// The shape's memory (the call's steps, the lead ball, the repeats).
    var shaper: MelodyShaper
    /// Index into the state's `melodyNotes` of the last melody note.
    private var pointer = 0
    /// When the last melody note sounds, seconds.
    private var last = -Double.infinity

    init(voice: VoiceID, curve: VelocityCurve, plan: MelodyPlan, state: HarmonyState) {
        self.voice = voice
        self.curve = curve
        self.plan = plan
        shaper = MelodyShaper(plan: plan)
        pointer = Performer.melodyStart(state.melodyNotes, tonic: state.configuration.key.tonic)
    }

    /// Becomes `other`, in its own buffers.
    mutating func assign(from other: MelodyPlayer) {
        pointer = other.pointer
        last = other.last
        shaper.assign(from: other.shaper)
    }

    /// Form: the last note's time `offset` seconds later (a section played again).
    mutating func move(by offset: Double) { last += offset }

    mutating func start(at time: Double, state: HarmonyState, scheduler: inout Scheduler) {
        pointer = Performer.melodyStart(state.melodyNotes, tonic: state.configuration.key.tonic)
        last = -.infinity
        shaper.reset()
    }

    /// The melody takes no hit of its own: it answers the keys' (`answer`).
    func play(_ hit: Hit, state: inout HarmonyState, scheduler: inout Scheduler) -> Bool { false }

    /// The line a strike sounding at `placed` plays on, or nil when it would wait longer than
    /// a beat (or the pulse): the first pulse line after the last note at the earliest, the
    /// next beat for a note that would stand alone off the beat. Under `lead` (one ball's
    /// strikes, each alone), the next bar line or strong beat after the last note's pulse.
    func line(for placed: Double, clock: Clock) -> Double? {
        let pulse = plan.shortest * clock.quarterSeconds
        var line = placed
        var continues = false
        if last > -.infinity {
            // The pulse line after the last note (a swung line's swing taken off first).
            let next = clock.place(last + pulse - min(clock.swing, 0.45) * clock.stepSeconds - 1e-6)
            if line < next - 1e-6 { line = next }
            continues = abs(line - next) < 1e-6
        }
        if plan.shape == .lead && clock.grid.isOn {
            // One ball's strikes, each alone: on the next bar line or strong beat.
            return Self.nextStrongBeat(atOrAfter: line, clock: clock)
        }
        if clock.grid.isOn && !continues && clock.beatInBar(at: line) == nil { line = clock.nextBeat(atOrAfter: line) }
        return line - placed <= max(clock.beatSeconds, pulse) + 1e-6 ? line : nil
    }

    /// A key strike that sounded (key `number`, at `hit.time`): the melody's next note, if the
    /// pulse and the phrase leave room for one.
    mutating func answer(_ hit: Hit, key number: Int, state: HarmonyState, scheduler: inout Scheduler) {
        let notes = state.melodyNotes
        guard !notes.isEmpty, case .key(_, let tone) = hit.target else { return }
        let clock = scheduler.clock
        let placed = scheduler.place(hit.time)
        let bar = clock.bar(at: placed)
        guard shaper.hears(ball: hit.ball, bar: bar),
              let sounding = line(for: placed, clock: clock) else { return }
        let soundingBar = clock.bar(at: sounding)
        let degree = state.degree(at: sounding)
        let mask = state.chordMasks[degree - 1]
        let tonic = state.configuration.key.tonic
        var target: Int
        if soundingBar % plan.phraseBars == plan.phraseBars - 1 {
            // The phrase's last bar: home to the nearest tonic, one step at a time, then rest.
            let home = Self.nearestTonic(to: pointer, in: notes, tonic: tonic)
            guard home != pointer else { return }
            target = pointer + (home > pointer ? 1 : -1)
        } else {
            let beat = clock.beatInBar(at: sounding)
            let strong = beat.map { $0 == 0 || clock.meter.strongBeats.contains($0) } ?? false
            let toneClass = PitchClass(state.keysNotes[degree - 1][min(max(tone, 1), PerformerConfiguration.maximumTone) - 1])
            let strike = MelodyShaper.Strike(key: number, toneClass: toneClass, strong: strong, bar: soundingBar,
                                             barInPhrase: soundingBar % plan.phraseBars)
            target = shaper.target(for: strike, from: pointer, notes: notes, centre: notes.count / 2, mask: mask)
        }
        scheduler.schedule(NoteEvent(time: sounding, kind: .on, voice: voice, note: notes[target],
                                     velocity: curve.velocity(forSpeed: hit.speed), ball: hit.ball, speed: hit.speed,
                                     degree: degree, cause: .melodyStep(key: number, step: target - pointer), hit: hit.time),
                           at: sounding)
        shaper.played(target - pointer)
        pointer = target
        last = sounding
    }

    /// The melody goes on from the new scale's note nearest its last one; queued melody notes
    /// play the nearest note of the new scale.
    mutating func changeKey(at time: Double, fromScale oldScale: [Int], state: HarmonyState, scheduler: inout Scheduler) {
        let notes = state.melodyNotes
        guard !notes.isEmpty else { return }
        pointer = oldScale.isEmpty || pointer >= oldScale.count
            ? Performer.melodyStart(notes, tonic: state.configuration.key.tonic)
            : Performer.nearest(to: oldScale[pointer], in: notes)
        scheduler.retune(voice: voice) { note, _ in notes[Performer.nearest(to: note.note, in: notes)] }
    }

    /// The first bar line or strong beat of the meter at or after `time`.
    static func nextStrongBeat(atOrAfter time: Double, clock: Clock) -> Double {
        var beat = clock.nextBeat(atOrAfter: time)
        for _ in 0..<clock.meter.beats {
            if let index = clock.beatInBar(at: beat), index == 0 || clock.meter.strongBeats.contains(index) { return beat }
            beat = clock.nextBeat(atOrAfter: beat + clock.beatSeconds / 2)
        }
        return beat
    }

    /// The index of the tonic of `notes` nearest index `index` (the higher on a tie).
    static func nearestTonic(to index: Int, in notes: [Int], tonic: PitchClass) -> Int {
        var best = index
        var distance = Int.max
        for (candidate, note) in notes.enumerated() where PitchClass(note) == tonic {
            let d = abs(candidate - index)
            if d < distance || (d == distance && candidate > best) { (best, distance) = (candidate, d) }
        }
        return best
    }
}
