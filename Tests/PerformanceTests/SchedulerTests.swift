// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Theory
import Vocabulary
@testable import Performance

@Suite struct ClockTests {
    @Test func placesOnTheFirstGridLineAtOrAfterTheHit() {
        let clock = Clock(tempo: 120, grid: Grid("1/16")!)   // a 1/16 step is 0.125 s
        #expect(clock.place(0) == 0)
        #expect(clock.place(0.125) == 0.125)
        #expect(clock.place(0.126) == 0.25)
        #expect(clock.place(0.001) == 0.125)
        var t = 0.0
        while t < 20 {
            let s = clock.place(t)
            #expect(s >= t && s - t < 0.125 + 1e-12)
            let ticks = s * 2 * 960            // 120 bpm: 1920 ticks a second
            #expect(abs(ticks / 240 - (ticks / 240).rounded()) < 1e-6, "\(s) s is not on a 1/16 line")
            t += 0.0137
        }
    }

    @Test func swingDelaysEverySecondLineAndNeverPlaysEarly() {
        let clock = Clock(tempo: 120, grid: Grid("1/8")!, swing: 0.5)  // step 0.25 s, odd lines +0.125 s
        #expect(clock.place(0.1) == 0.375)
        #expect(clock.place(0.3) == 0.375)
        #expect(clock.place(0.4) == 0.5)
        for i in 0..<1000 { let t = Double(i) * 0.0071; #expect(clock.place(t) >= t) }
    }

    @Test func strengthMovesPartWay() {
        let clock = Clock(tempo: 120, grid: Grid("1/4")!, strength: 0.5)
        #expect(clock.place(0.2) == 0.35)
    }

    @Test func offPlaysAtTheHit() {
        #expect(Clock().place(1.2345) == 1.2345)
    }

    @Test func metersAndGridsParseOnlyWhatIsListed() {
        #expect(["4/4", "3/4", "6/8", "5/4", "7/8"].allSatisfy { Meter($0)?.description == $0 })
        #expect(Meter("9/8") == nil && Meter("4") == nil)
        #expect(["off", "1/4", "1/8", "1/16", "1/32", "1/8t", "1/16t"].allSatisfy { Grid($0)?.description == $0 })
        #expect(Grid("1/64") == nil)
    }

    @Test func beatsAndBars() {
        let clock = Clock(tempo: 90, meter: Meter("3/4")!)
        #expect(abs(clock.barSeconds - 2) < 1e-12)
        #expect(clock.nextBar(atOrAfter: 2.1) == 4)
        #expect(clock.nextBar(atOrAfter: 4) == 4)
        #expect(clock.beatInBar(at: 4) == 0)
        #expect(clock.beatInBar(at: clock.beatSeconds * 5) == 2)
        #expect(clock.beatInBar(at: 0.3) == nil)
        let eighths = Clock(tempo: 120, meter: Meter("6/8")!)
        #expect(abs(eighths.beatSeconds - 0.25) < 1e-12)
    }
}

@Suite struct SchedulerTests {
    static func note(_ hit: Double, _ pitch: Int, _ velocity: Int, voice: VoiceID = .keys) -> NoteEvent {
        NoteEvent(time: hit, kind: .on, voice: voice, note: pitch, velocity: velocity, ball: 1, degree: 1, hit: hit)
    }

    @Test func repeatedStrikesOnOneLineBecomeTheLoudestNote() {
        var scheduler = Scheduler(voices: cMajorVoices(), clock: Clock(grid: Grid("1/16")!), feel: Feel(downbeatAccent: 0, strongAccent: 0))
        for (hit, velocity) in [(0.13, 40), (0.16, 90), (0.2, 60)] {
            let n = Self.note(hit, 60, velocity)
            scheduler.schedule(n, at: scheduler.place(hit))
        }
        var events: [ScheduledEvent] = []
        scheduler.deliver(through: 1, into: &events)
        let ons = events.compactMap(\.note).filter { $0.kind == .on }
        #expect(ons.count == 1 && ons[0].velocity == 90 && ons[0].time == 0.25 && ons[0].hit == 0.16)
    }

    @Test func downbeatsAndStrongBeatsAreAccentedOnlyWhenQuantised() {
        let feel = Feel(downbeatAccent: 12, strongAccent: 6)
        var scheduler = Scheduler(voices: cMajorVoices(), clock: Clock(tempo: 120, grid: Grid("1/8")!), feel: feel)
        // 4/4 at 120: bar 2 s; beat 3 at 1 s; beat 2 at 0.5 s; off-beat at 0.25 s.
        for (time, pitch) in [(2.0, 60), (1.0, 62), (0.5, 64), (0.25, 65), (2.0, 127)] {
            scheduler.schedule(Self.note(time, pitch, 120), at: time)
        }
        var events: [ScheduledEvent] = []
        scheduler.deliver(through: 3, into: &events)
        let velocity = Dictionary(events.compactMap(\.note).filter { $0.kind == .on }.map { ($0.note, $0.velocity) }, uniquingKeysWith: max)
        #expect(velocity[60] == 127 && velocity[62] == 126 && velocity[64] == 120 && velocity[65] == 120)
        var unquantised = Scheduler(voices: cMajorVoices(), clock: Clock(), feel: feel)
        unquantised.schedule(Self.note(2, 60, 100), at: 2)
        events.removeAll()
        unquantised.deliver(through: 3, into: &events)
        #expect(events.first?.note?.velocity == 100)
    }

    @Test func velocityFloorLiftsGhostNotesLinearly() {
        let feel = Feel(downbeatAccent: 0, strongAccent: 0, velocityFloor: 40)
        #expect(feel.floored(1) == 40 && feel.floored(127) == 127)
        #expect(feel.floored(64) == 84)
        #expect(Feel().floored(5) == 5)
    }

    /// A phrase swells and falls: a strike's velocity is scaled by 1 − swell at the phrase's
    /// bar line, at full strength 61 % of the way through, and falls again toward its end.
    @Test func phrasesSwellAndFall() {
        var feel = Feel(downbeatAccent: 0, strongAccent: 0)
        feel.swell = 0.4
        feel.phraseBars = 8
        #expect(feel.swelled(100, bar: 0) == 60)
        #expect(feel.swelled(100, bar: 8) == 60)
        #expect(feel.swelled(100, bar: 8 * 0.61) >= 99)
        #expect(feel.swelled(100, bar: 2) < feel.swelled(100, bar: 4))
        #expect(feel.swelled(100, bar: 7.5) < feel.swelled(100, bar: 6))
        #expect(Feel().swelled(100, bar: 0) == 100)
        // In the queue: the same strike at the phrase's start and at its height.
        var clock = Clock(tempo: 120, grid: Grid("1/8")!)
        clock.meter = Meter("4/4")!
        var scheduler = Scheduler(voices: cMajorVoices(), clock: clock, feel: feel)
        let keys = VoiceID(rawValue: 1)
        for time in [0.25, 10.25] {
            scheduler.schedule(NoteEvent(time: time, kind: .on, voice: keys, note: 60, velocity: 100, degree: 1,
                                         cause: .keyHit(key: 1, tone: 1), hit: time), at: time)
        }
        var delivered: [ScheduledEvent] = []
        scheduler.deliver(through: 11, into: &delivered)
        let velocities = delivered.compactMap { $0.note }.filter { $0.kind == .on }.map(\.velocity)
        #expect(velocities.count == 2 && velocities[0] < velocities[1], "\(velocities)")
    }

    @Test func chordChangeOnTheBarEndsRingingNonChordTones() {
        var configuration = cMajorConfiguration()
        configuration.chordChange = .bar
        configuration.endsNonChordTones = true
        var band = Band(configuration: configuration, voices: cMajorVoices(keysLength: 5), clock: Clock(tempo: 120, grid: Grid("1/8")!))
        band.start()
        // Keys 1 and 2 of Cmaj7 (folded): C4 and E4, ringing for 5 s.
        band.play(Hit(time: 0.3, ball: 1, target: .key(number: 1, tone: 1), speed: 5))
        band.play(Hit(time: 0.35, ball: 2, target: .key(number: 2, tone: 2), speed: 5))
        // The bass asks for IV (Fmaj7: F A C E) at 0.9 s: the change waits for the bar line at 2 s.
        band.play(Hit(time: 0.9, ball: 0, target: .degree(4), speed: 2))
        #expect(band.performer.activeDegree == 1)
        band.play(Hit(time: 1.5, ball: 3, target: .key(number: 3, tone: 3), speed: 5))   // G4 of C, sounding at 1.5
        band.play(Hit(time: 1.95, ball: 4, target: .key(number: 4, tone: 4), speed: 5))  // sounds at 2.0: E5, the 7th of F
        band.run(through: 2.5)
        #expect(band.performer.activeDegree == 4)
        let bass = band.noteOns.filter { $0.voice == .bass }
        #expect(bass.last?.time == 2.0 && bass.last?.note == 53 && bass.last?.hit == 0.9)
        // G (not in Fmaj7) ends at the bar line; C and E ring on.
        let offsAtTheBar = band.events.filter { $0.kind == .off && $0.time == 2.0 }.map(\.note)
        #expect(offsAtTheBar == [67])
        #expect(band.noteOns.last?.note == 76 && band.noteOns.last?.degree == 4)
    }

    @Test func keyNotesQueuedForTheChangePlayTheNewChord() {
        var configuration = cMajorConfiguration()
        configuration.chordChange = .bar
        var band = Band(configuration: configuration, clock: Clock(tempo: 120, grid: Grid("1/4")!))
        band.start()
        // Key 1 (the root) struck at 1.6 s waits for 2.0 s; then the bass asks for V at 1.7 s.
        band.play(Hit(time: 1.6, ball: 1, target: .key(number: 1, tone: 1), speed: 5))
        band.play(Hit(time: 1.7, ball: 0, target: .degree(5), speed: 2))
        // Key 2 (the 3rd) struck at 1.8 s also sounds at 2.0 s, after the change: B4 of G7.
        band.play(Hit(time: 1.8, ball: 2, target: .key(number: 2, tone: 2), speed: 5))
        band.run(through: 2.1)
        let keys = band.noteOns.filter { $0.voice == .keys }
        #expect(keys.map(\.note) == [67, 71], "the root of V (G4) and its 3rd (B4)")
        #expect(keys.allSatisfy { $0.time == 2.0 && $0.degree == 5 })
        #expect(band.noteOns.filter { $0.voice == .bass }.last?.time == 2.0)
    }

    @Test func stompPlaysTheChosenBeatsOfTheBar() {
        var configuration = cMajorConfiguration()
        configuration.percussion = PercussionPlan(stompBeats: [1, 3], stompVelocity: 90)
        var band = Band(configuration: configuration, voices: cMajorVoices(percussion: true),
                        clock: Clock(tempo: 120, meter: Meter("3/4")!, grid: Grid("1/8")!), feel: Feel(downbeatAccent: 10, strongAccent: 0))
        band.start()
        band.run(through: 3.2)
        let stomps = band.noteOns.filter { $0.voice.rawValue == 2 }
        #expect(stomps.map(\.time) == [0, 1, 1.5, 2.5, 3])
        #expect(stomps.map(\.velocity) == [100, 90, 100, 90, 100])
        #expect(stomps.allSatisfy { $0.note == 36 && $0.cause == .drum(.stomp) })
    }

    @Test func metronomeClicksEveryBeatHighOnTheDownbeat() {
        var configuration = cMajorConfiguration()
        configuration.percussion = PercussionPlan(metronome: true)
        var band = Band(configuration: configuration, voices: cMajorVoices(percussion: true),
                        clock: Clock(tempo: 120, meter: Meter("6/8")!), feel: Feel(downbeatAccent: 0, strongAccent: 0))
        band.start()
        band.run(through: 1.6)   // eighth-note beats every 0.25 s: 0 … 1.5
        let clicks = band.noteOns.filter { $0.voice.rawValue == 2 }
        #expect(clicks.map(\.time) == [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5])
        #expect(clicks.map(\.note) == [76, 77, 77, 77, 77, 77, 76])
        #expect(clicks.allSatisfy { $0.cause == .drum(.metronome) })
    }

    @Test func deliveringOutOfOrderIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            var scheduler = Scheduler(voices: cMajorVoices(), clock: Clock(), feel: Feel())
            var events: [ScheduledEvent] = []
            scheduler.schedule(NoteEvent(time: 2, kind: .on, voice: .keys, note: 60, velocity: 64, degree: 1), at: 2)
            scheduler.deliver(through: 2, into: &events)
            scheduler.schedule(NoteEvent(time: 1, kind: .on, voice: .keys, note: 62, velocity: 64, degree: 1), at: 1)
            scheduler.deliver(through: 3, into: &events)
        }
    }
}
