// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory
import Vocabulary

/// What plays a row of the voices table: it turns the hits that are its own into notes.
///
/// The performer hands every hit to its players (bass, then keys, then drums) until one takes
/// it, then lets each follow a chord change the hit asked for; at the end of each step each
/// plays what the clock brings, and at a live key change each plays its queued notes in the
/// new key. A player reads the harmony in force (`HarmonyState`); only the bass changes it.
protocol Player: Sendable {
    /// The row of the voices table it plays.
    var voice: VoiceID { get }
    /// Plays `hit` if it is this player's (even when too soft to sound); false if it is not.
    mutating func play(_ hit: Hit, state: inout HarmonyState, scheduler: inout Scheduler) -> Bool
    /// The session opens at `time`, on chord I.
    mutating func start(at time: Double, state: HarmonyState, scheduler: inout Scheduler)
    /// The step ending at `time` is over.
    mutating func advance(through time: Double, state: HarmonyState, scheduler: inout Scheduler)
    /// The chord of `degree` takes over at `time` (asked for by the hit just played).
    mutating func follow(chordOf degree: Int, at time: Double, state: HarmonyState, scheduler: inout Scheduler)
    /// A live key change at `time`: `oldScale` is the melody's scale notes before it, `state`
    /// the new harmony.
    mutating func changeKey(at time: Double, fromScale oldScale: [Int], state: HarmonyState, scheduler: inout Scheduler)
}

extension Player {
    mutating func start(at time: Double, state: HarmonyState, scheduler: inout Scheduler) {}
    mutating func advance(through time: Double, state: HarmonyState, scheduler: inout Scheduler) {}
    mutating func follow(chordOf degree: Int, at time: Double, state: HarmonyState, scheduler: inout Scheduler) {}
    mutating func changeKey(at time: Double, fromScale oldScale: [Int], state: HarmonyState, scheduler: inout Scheduler) {}
}

/// The bass ball's player: a bouncer's degree becomes the chord in force and its root sounds
/// (with a leading note a grid line before it when asked); the session opens on I's root.
struct BassPlayer: Player {
    let voice: VoiceID
    /// Velocity from impact speed.
    let curve: VelocityCurve

    func start(at time: Double, state: HarmonyState, scheduler: inout Scheduler) {
        scheduler.schedule(NoteEvent(time: time, kind: .on, voice: voice, note: state.bassNotes[0],
                                     velocity: curve.velocity(forSpeed: curve.loudSpeed), ball: 0, speed: 0, degree: 1,
                                     cause: .opening),
                           at: time)
    }

    /// An ending's last bar line at `time`: chord I takes over there (replacing a change and a
    /// root queued for the line) and its root sounds, loud, as at the opening.
    func end(at time: Double, state: inout HarmonyState, scheduler: inout Scheduler) {
        if (state.pending?.degree ?? state.activeDegree) != 1 { state.lead(to: 1) }
        state.pending = (1, time)
        scheduler.changeHarmony(to: 1, at: time)
        scheduler.schedule(NoteEvent(time: time, kind: .on, voice: voice, note: state.bassNotes[0],
                                     velocity: curve.velocity(forSpeed: curve.loudSpeed), ball: 0, speed: 0, degree: 1,
                                     cause: .ending, hit: time),
                           at: time, replacesVoice: true)
        state.change = (1, time)
    }

    func play(_ hit: Hit, state: inout HarmonyState, scheduler: inout Scheduler) -> Bool {
        guard case .degree(let degree) = hit.target else { return false }
        let configuration = state.configuration
        guard hit.speed >= configuration.bassMinimumSpeed, (1...7).contains(degree) else { return true }
        let previous = state.pending?.degree ?? state.activeDegree
        // Under `smooth`, the new chord is voiced from the one it follows (the waiting one, if any).
        if degree != previous { state.lead(to: degree) }
        let velocity = curve.velocity(forSpeed: hit.speed)
        let change: Double
        switch configuration.chordChange {
        case .hit: change = hit.time
        case .beat: change = scheduler.clock.nextBeat(atOrAfter: hit.time)
        case .bar: change = scheduler.clock.nextBar(atOrAfter: hit.time)
        }
        let sounding: Double
        if configuration.chordChange == .hit {
            state.activeDegree = degree
            sounding = scheduler.place(hit.time)
        } else {
            state.pending = (degree, change)
            sounding = change
        }
        // The chord takes over when its root sounds (a later hit for the same line replaces it).
        scheduler.changeHarmony(to: degree, at: sounding)
        if configuration.approach != .off && degree != previous && scheduler.clock.grid.isOn {
            approach(degree, sounding: sounding, hit: hit, velocity: velocity, state: state, scheduler: &scheduler)
        }
        scheduler.schedule(NoteEvent(time: sounding, kind: .on, voice: voice, note: state.bassNotes[degree - 1], velocity: velocity,
                                     ball: hit.ball, speed: hit.speed, degree: degree, cause: .bassHit(degree: degree), hit: hit.time),
                           at: sounding, replacesVoice: configuration.chordChange != .hit)
        state.change = (degree, change)
        return true
    }

    /// A leading note one grid line before the new root of `degree` (sounding at `sounding`),
    /// when that line is not before the hit. It replaces the approach of a change this hit
    /// overrides (same line); it is left out where a root could sound (a beat line for beat
    /// changes, a bar line for bar changes).
    private func approach(_ degree: Int, sounding: Double, hit: Hit, velocity: Int, state: HarmonyState, scheduler: inout Scheduler) {
        let configuration = state.configuration
        let before = scheduler.place(sounding - scheduler.clock.stepSeconds)
        let line = scheduler.clock.beatInBar(at: before)
        let rootsLine = configuration.chordChange == .beat ? line != nil : line == 0
        guard before < sounding && before >= hit.time && !rootsLine else { return }
        let note = configuration.approach.note(to: state.bassNotes[degree - 1], in: configuration.key)
        scheduler.schedule(NoteEvent(time: before, kind: .on, voice: voice, note: min(max(note, 0), 127), velocity: velocity,
                                     ball: hit.ball, speed: hit.speed, degree: state.degree(at: before),
                                     cause: .leadingNote, hit: hit.time),
                           at: before, replacesVoice: true)
    }

    /// Roots queued for later play their degree's new root; a leading note the approach to it.
    func changeKey(at time: Double, fromScale oldScale: [Int], state: HarmonyState, scheduler: inout Scheduler) {
        let bass = state.bassNotes, key = state.configuration.key, approach = state.configuration.approach
        scheduler.retune(voice: voice) { note, root in
            if note.cause == .leadingNote {
                // The approach to the root it leads to: the next bass note queued.
                guard let root, (1...7).contains(root.degree) else { return note.note }
                return approach.note(to: bass[root.degree - 1], in: key)
            }
            return (1...7).contains(note.degree) ? bass[note.degree - 1] : note.note
        }
    }
}

/// The drums' player: walls and the floor struck by a ball (the bass ball's walls with the
/// bass's velocity curve), and on the clock's beats the stomp and the metronome.
struct DrumPlayer: Player {
    let voice: VoiceID
    /// Velocity from impact speed, for the piano balls' drums.
    let curve: VelocityCurve
    /// Velocity from impact speed, for the bass ball's walls.
    let bassCurve: VelocityCurve
    private var nextBeat = 0

    init(voice: VoiceID, curve: VelocityCurve, bassCurve: VelocityCurve) {
        self.voice = voice
        self.curve = curve
        self.bassCurve = bassCurve
    }

    /// Form: the beat count goes on where `other` (this player before a return) left it.
    mutating func keepCounting(as other: DrumPlayer) { nextBeat = other.nextBeat }

    func play(_ hit: Hit, state: inout HarmonyState, scheduler: inout Scheduler) -> Bool {
        guard hit.target == .wall || hit.target == .floor else { return false }
        let plan = state.configuration.percussion
        let isBass = hit.ball == 0
        let drum = isBass ? plan.bassWalls : hit.target == .wall ? plan.walls : plan.floor
        guard let drum, isBass || hit.speed >= state.configuration.keysMinimumSpeed else { return true }
        let sounding = scheduler.place(hit.time)
        scheduler.schedule(NoteEvent(time: sounding, kind: .on, voice: voice, note: drum.note,
                                     velocity: (isBass ? bassCurve : curve).velocity(forSpeed: hit.speed),
                                     ball: hit.ball, speed: hit.speed, degree: state.degree(at: sounding),
                                     cause: .drum(hit.target == .floor ? .floor : .wall), hit: hit.time),
                           at: sounding)
        return true
    }

    mutating func advance(through time: Double, state: HarmonyState, scheduler: inout Scheduler) {
        let plan = state.configuration.percussion
        guard plan.metronome || !plan.stompBeats.isEmpty else { return }
        let clock = scheduler.clock
        while clock.beatTime(nextBeat) <= time {
            let at = clock.beatTime(nextBeat)
            let beat = nextBeat % clock.meter.beats
            nextBeat += 1
            if plan.stompBeats.contains(beat + 1) {
                scheduler.schedule(NoteEvent(time: at, kind: .on, voice: voice, note: plan.stomp.note, velocity: plan.stompVelocity,
                                             degree: state.degree(at: at), cause: .drum(.stomp)), at: at)
            }
            if plan.metronome {
                scheduler.schedule(NoteEvent(time: at, kind: .on, voice: voice, note: beat == 0 ? 76 : 77, velocity: beat == 0 ? 100 : 80,
                                             degree: state.degree(at: at), cause: .drum(.metronome)), at: at)
            }
        }
    }
}
