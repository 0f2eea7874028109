// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

/// What shapes the melody voice: its phrases and its pace (`melody` in a preset).
public struct MelodyPlan: Sendable, Hashable {
    /// Bars in a phrase: the melody rises in a phrase's even bars, falls in its odd ones, and
    /// walks home to the tonic in its last bar (a form's `bars`, else 4).
    public var phraseBars: Int
    /// The shortest time between two melody notes, in quarter notes (0.5: an eighth).
    public var shortest: Double
    /// Number of keys (K): key 1 turns against the phrase's way, key K (of three or more)
    /// skips a scale tone, the others step.
    public var keys: Int

    /// A plan with phrases of `phraseBars` bars, notes at most every `shortest` quarter notes.
    public init(phraseBars: Int, shortest: Double, keys: Int) {
        self.phraseBars = max(1, phraseBars)
        self.shortest = shortest
        self.keys = max(1, keys)
    }

    /// The melody's register: from its base up an octave and a sixth (MIDI notes).
    public static func register(base: Pitch) -> ClosedRange<Int> { base.midi...(base.midi + 21) }
}

/// The melody's player: a tune on top, one voice, moved by the piano balls' strikes.
///
/// Every key strike that sounds may also move the melody, at most one note every
/// `MelodyPlan.shortest` quarter notes, on the strike's grid line. Where it goes is a rule
/// applied to the strike: mostly a step along the scale, in the way of the phrase (up in its
/// even bars, down in its odd ones; the leftmost key turns against it, a neighbour tone; the
/// rightmost skips a tone). A note on a strong beat goes to the nearest tone of the chord playing
/// then (a passing or neighbour tone may fall between), never the note it left. In a phrase's
/// last bar the melody walks to the nearest tonic and rests there (later strikes in that bar
/// add nothing), so every phrase ends on the tonic. The voice is monophonic: each note ends the
/// one before (`Voice.isMonophonic`).
struct MelodyPlayer: Player {
    let voice: VoiceID
    /// Velocity from impact speed (the keys').
    let curve: VelocityCurve
    let plan: MelodyPlan
    /// Index into the state's `melodyNotes` of the last melody note.
    private var pointer = 0
    /// When the last melody note sounds, seconds.
    private var last = -Double.infinity

    init(voice: VoiceID, curve: VelocityCurve, plan: MelodyPlan, state: HarmonyState) {
        self.voice = voice
        self.curve = curve
        self.plan = plan
        pointer = Performer.melodyStart(state.melodyNotes, tonic: state.configuration.key.tonic)
    }

    /// Becomes `other`.
    mutating func assign(from other: MelodyPlayer) {
        pointer = other.pointer
        last = other.last
    }

    /// Form: the last note's time `offset` seconds later (a section played again).
    mutating func move(by offset: Double) { last += offset }

    mutating func start(at time: Double, state: HarmonyState, scheduler: inout Scheduler) {
        pointer = Performer.melodyStart(state.melodyNotes, tonic: state.configuration.key.tonic)
        last = -.infinity
    }

    /// The melody takes no hit of its own: it answers the keys' (`answer`).
    func play(_ hit: Hit, state: inout HarmonyState, scheduler: inout Scheduler) -> Bool { false }

    /// A key strike that sounded (key `number`, at `hit.time`): the melody's next note, if the
    /// pace and the phrase leave room for one.
    mutating func answer(_ hit: Hit, key number: Int, state: HarmonyState, scheduler: inout Scheduler) {
        let notes = state.melodyNotes
        guard !notes.isEmpty else { return }
        let clock = scheduler.clock
        let sounding = scheduler.place(hit.time)
        guard sounding >= last + plan.shortest * clock.quarterSeconds - 1e-6 else { return }
        let bar = Int(((sounding + clock.shift) / clock.barSeconds + 1e-6).rounded(.down))
        let barInPhrase = bar % plan.phraseBars
        let degree = state.degree(at: sounding)
        let mask = state.chordMasks[degree - 1]
        var target: Int
        var way: Int
        if barInPhrase == plan.phraseBars - 1 {
            // The phrase's last bar: home to the nearest tonic, one step at a time, then rest.
            let home = Self.nearestTonic(to: pointer, in: notes, tonic: state.configuration.key.tonic)
            guard home != pointer else { return }
            way = home > pointer ? 1 : -1
            target = pointer + way
        } else {
            let contour = barInPhrase % 2 == 0 ? 1 : -1
            let key = min(max(number, 1), plan.keys)
            way = key == 1 && plan.keys > 1 ? -contour : contour
            let size = key == plan.keys && plan.keys >= 3 ? 2 : 1
            target = pointer + way * size
            if target < 0 || target >= notes.count {
                way = -way
                target = pointer + way * size
            }
            target = min(max(target, 0), notes.count - 1)
            let beat = clock.beatInBar(at: sounding)
            let strong = beat.map { $0 == 0 || clock.meter.strongBeats.contains($0) } ?? false
            if strong { target = Self.chordTone(near: target, leaving: pointer, way: way, mask: mask, in: notes) }
        }
        if target == pointer { return }
        scheduler.schedule(NoteEvent(time: sounding, kind: .on, voice: voice, note: notes[target],
                                     velocity: curve.velocity(forSpeed: hit.speed), ball: hit.ball, speed: hit.speed,
                                     degree: degree, cause: .melodyStep(key: number, step: target - pointer), hit: hit.time),
                           at: sounding)
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

    /// The chord tone (pitch classes `mask`) of `notes` nearest index `target`, looking first
    /// the way the melody goes, never `leaving` (the note it moves from); `target` when none.
    static func chordTone(near target: Int, leaving: Int, way: Int, mask: Int, in notes: [Int]) -> Int {
        func fits(_ index: Int) -> Bool {
            index >= 0 && index < notes.count && index != leaving && mask & (1 << PitchClass(notes[index]).value) != 0
        }
        if fits(target) { return target }
        for distance in 1..<max(notes.count, 2) {
            if fits(target + way * distance) { return target + way * distance }
            if fits(target - way * distance) { return target - way * distance }
        }
        return target
    }
}
