// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

/// The piano balls' player: a key struck plays its chord tone of the chord in force (or, under
/// `melodic` keys, moves the melody by the key's steps), through the dribble gate.
struct KeysPlayer: Player {
    let voice: VoiceID
    /// Velocity from impact speed.
    let curve: VelocityCurve
    private var lastKeyHit: [Double]   // per ball
    private var pointer = 0            // `melodic`: index into the state's scaleNotes of the last melody note
    /// Whether the last hit played sounded (not too soft, not a dribble): the melody answers it.
    private(set) var sounded = false

    init(voice: VoiceID, curve: VelocityCurve, balls: Int, state: HarmonyState) {
        self.voice = voice
        self.curve = curve
        lastKeyHit = Array(repeating: -.infinity, count: balls + 1)
        pointer = Performer.melodyStart(state.scaleNotes, tonic: state.configuration.key.tonic)
    }

    /// Becomes `other`, in its own buffer.
    mutating func assign(from other: KeysPlayer) {
        lastKeyHit.overwrite(with: other.lastKeyHit)
        pointer = other.pointer
    }

    /// Form: the dribble gate's last hits, `offset` seconds later (a section played again).
    mutating func moveHits(by offset: Double) {
        for index in lastKeyHit.indices { lastKeyHit[index] += offset }
    }

    mutating func start(at time: Double, state: HarmonyState, scheduler: inout Scheduler) {
        pointer = Performer.melodyStart(state.scaleNotes, tonic: state.configuration.key.tonic)
    }

    mutating func play(_ hit: Hit, state: inout HarmonyState, scheduler: inout Scheduler) -> Bool {
        guard case .key(let number, let tone) = hit.target else { return false }
        sounded = false
        let configuration = state.configuration
        guard hit.speed >= configuration.keysMinimumSpeed, (1...PerformerConfiguration.maximumTone).contains(tone) else { return true }
        let velocity = curve.velocity(forSpeed: hit.speed)
        if let gate = configuration.dribble, hit.ball < lastKeyHit.count {
            let isDribble = hit.time - lastKeyHit[hit.ball] < gate.window && velocity < gate.velocity
            lastKeyHit[hit.ball] = hit.time
            if isDribble { return true }
        }
        let sounding = scheduler.place(hit.time)
        let degree = state.degree(at: sounding)
        var note = state.keysNotes[degree - 1][tone - 1]
        var cause = NoteEvent.Cause.keyHit(key: number, tone: tone)
        if let steps = configuration.melodicSteps {
            // Strong: on the bar line or a strong beat of the meter (quantised notes land there).
            let beat = scheduler.clock.grid.isOn ? scheduler.clock.beatInBar(at: sounding) : nil
            let strong = beat.map { $0 == 0 || scheduler.clock.meter.strongBeats.contains($0) } ?? false
            let step = steps[min(max(number, 1), steps.count) - 1]
            note = melodyNote(step: step, strong: strong, mask: state.chordMasks[degree - 1], state: state)
            cause = .melodyStep(key: number, step: step)   // not a chord tone the scheduler re-voices at a change
        }
        scheduler.schedule(NoteEvent(time: sounding, kind: .on, voice: voice, note: note,
                                     velocity: velocity, ball: hit.ball, speed: hit.speed, degree: degree,
                                     cause: cause, hit: hit.time),
                           at: sounding)
        sounded = true
        return true
    }

    /// Key notes already queued for the change or later play the new chord; with
    /// `endsNonChordTones`, ringing ones that do not fit it end there.
    func follow(chordOf degree: Int, at time: Double, state: HarmonyState, scheduler: inout Scheduler) {
        let configuration = state.configuration
        guard configuration.endsNonChordTones || configuration.chordChange != .hit else { return }
        scheduler.changeChord(at: time, voice: voice,
                              pitchClasses: configuration.endsNonChordTones ? state.chordMasks[degree - 1] : 0xFFF,
                              degree: degree, notes: state.keysNotes[degree - 1])
    }

    /// The melody goes on from the new scale's note nearest its last one; queued key notes play
    /// their chord tone of the new chord, queued melody notes the nearest note of the new scale;
    /// with `endsNonChordTones`, ringing notes outside the new active chord end at `time`.
    mutating func changeKey(at time: Double, fromScale oldScale: [Int], state: HarmonyState, scheduler: inout Scheduler) {
        let scale = state.scaleNotes
        pointer = oldScale.isEmpty ? Performer.melodyStart(scale, tonic: state.configuration.key.tonic)
            : Performer.nearest(to: oldScale[pointer], in: scale)
        let keys = state.keysNotes
        scheduler.retune(voice: voice) { note, _ in
            if case .keyHit(_, let tone) = note.cause, (1...PerformerConfiguration.maximumTone).contains(tone),
               (1...7).contains(note.degree) {
                return keys[note.degree - 1][tone - 1]
            }
            return scale.isEmpty ? note.note : scale[Performer.nearest(to: note.note, in: scale)]
        }
        guard state.configuration.endsNonChordTones else { return }
        let masks = state.chordMasks
        scheduler.retuneChordChanges(voice: voice) { degree in (1...7).contains(degree) ? masks[degree - 1] : 0xFFF }
        scheduler.endSounding(at: time, voice: voice, keeping: masks[state.activeDegree - 1], degree: state.activeDegree)
    }

    /// Moves the melody by `step` scale steps (turning back at the register's edge) and returns
    /// its note; on a strong beat the pointer then goes to the nearest tone of the chord (whose
    /// pitch classes are `mask`), looking first the way the step went.
    private mutating func melodyNote(step: Int, strong: Bool, mask: Int, state: HarmonyState) -> Int {
        let scaleNotes = state.scaleNotes
        guard !scaleNotes.isEmpty else { return state.configuration.keysBase.midi }
        let count = scaleNotes.count
        var target = pointer + step
        if target < 0 || target >= count { target = pointer - step }
        target = min(max(target, 0), count - 1)
        if strong && mask & (1 << PitchClass(scaleNotes[target]).value) == 0 {
            let direction = step < 0 ? -1 : 1
            search: for distance in 1..<count {
                for side in 0..<2 {
                    let candidate = target + (side == 0 ? direction : -direction) * distance
                    if candidate >= 0 && candidate < count && mask & (1 << PitchClass(scaleNotes[candidate]).value) != 0 {
                        target = candidate
                        break search
                    }
                }
            }
        }
        pointer = target
        return scaleNotes[target]
    }
}
