// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Theory
import Vocabulary
@testable import Performance

/// Live key changes (`Performer.changeKey`): the harmony follows the new key from the change on.
@Suite struct KeyChangeTests {
    /// The C major configuration of the other tests, in `key` (its own seventh chords).
    func configuration(_ key: Key, _ edit: (inout PerformerConfiguration) -> Void = { _ in }) -> PerformerConfiguration {
        let base = cMajorConfiguration()
        var configuration = PerformerConfiguration(key: key, bassBase: base.bassBase, keysBase: base.keysBase, voicing: base.voicing,
                                                   bassMinimumSpeed: base.bassMinimumSpeed, keysMinimumSpeed: base.keysMinimumSpeed)
        edit(&configuration)
        return configuration
    }

    func key(_ text: String) -> Key { Key(parsing: text)! }

    func pitchClasses(_ notes: [NoteEvent]) -> [Int] { notes.map { $0.note % 12 } }

    func keyHits(at time: Double, tones: ClosedRange<Int> = 1...4) -> [Hit] {
        tones.map { Hit(time: time, ball: $0, target: .key(number: $0, tone: $0), speed: 5) }
    }

    @Test func afterAChangeTheKeysPlayTheNewKeysChordOfTheActiveDegreeAndTheBassItsRoots() {
        var band = Band(configuration: configuration(key("C major")))
        band.start()
        band.play(Hit(time: 0.1, ball: 0, target: .degree(2), speed: 1))
        for hit in keyHits(at: 0.2) { band.play(hit) }
        let eFlat = configuration(key("Eb major"))
        band.performer.changeKey(to: eFlat, at: 0.25, scheduler: &band.scheduler)
        #expect(band.performer.activeDegree == 2)
        #expect(band.performer.chords == eFlat.chords)
        for hit in keyHits(at: 0.3) { band.play(hit) }
        band.play(Hit(time: 0.4, ball: 0, target: .degree(5), speed: 1))
        band.finish(at: 2)
        let keys = band.noteOns.filter { $0.voice == .keys }
        // Before: D F A C (ii7 of C). After: F A♭ C E♭ (ii7 of E♭), each the tone its key plays.
        #expect(pitchClasses(keys.filter { $0.time < 0.25 }) == [2, 5, 9, 0])
        #expect(pitchClasses(keys.filter { $0.time > 0.25 }) == [5, 8, 0, 3])
        for note in keys where note.time > 0.25 {
            guard case .keyHit(_, let tone) = note.cause else { Issue.record("a key note caused by \(note.cause)"); continue }
            #expect(note.note == eFlat.keysNote(degree: 2, tone: tone))
        }
        // The bass: C (start), D (ii of C), then B♭ (V of E♭) in the bass register.
        let bass = band.noteOns.filter { $0.voice == .bass }.map(\.note)
        #expect(bass == [48, 50, eFlat.bassNote(degree: 5)])
        #expect(eFlat.bassNote(degree: 5) % 12 == 10)
    }

    @Test func notesQueuedForTheirGridLineAreRetunedToTheNewKey() {
        // A 1/4 grid at 120 bpm: hits at 0.1 s sound at 0.5 s, after a change at 0.2 s.
        var band = Band(configuration: configuration(key("C major")), clock: Clock(tempo: 120, grid: Grid("1/4")!))
        band.start()
        band.play(Hit(time: 0.1, ball: 0, target: .degree(4), speed: 1))
        for hit in keyHits(at: 0.1, tones: 1...3) { band.play(hit) }
        let aMinor = configuration(key("A minor"))
        band.performer.changeKey(to: aMinor, at: 0.2, scheduler: &band.scheduler)
        band.run(through: 1)
        band.finish(at: 3)
        let late = band.noteOns.filter { $0.time == 0.5 }
        // Degree 4 of A minor is D minor: D F A in the keys, D in the bass.
        #expect(pitchClasses(late.filter { $0.voice == .keys }).sorted() == [2, 5, 9])
        #expect(late.filter { $0.voice == .bass }.map(\.note) == [aMinor.bassNote(degree: 4)])
        #expect(aMinor.bassNote(degree: 4) % 12 == 2)
    }

    @Test func aChordChangeWaitingForTheBarBringsItsDegreesChordInTheNewKey() {
        var c = configuration(key("C major"))
        c.chordChange = .bar
        c.approach = .chromaticBelow
        var band = Band(configuration: c, clock: Clock(tempo: 120, grid: Grid("1/8")!))
        band.start()
        band.play(Hit(time: 0.3, ball: 0, target: .degree(5), speed: 1))   // G, on the bar line at 2 s
        var d = configuration(key("D major"))
        d.chordChange = .bar
        d.approach = .chromaticBelow
        band.performer.changeKey(to: d, at: 0.5, scheduler: &band.scheduler)
        for hit in keyHits(at: 2.1, tones: 1...3) { band.play(hit) }
        band.finish(at: 4)
        let bass = band.noteOns.filter { $0.voice == .bass }
        // A (V of D) on the bar line, led into by the half step below it (G♯), not G and F♯.
        let root = d.bassNote(degree: 5)
        #expect(bass.map(\.note) == [48, root - 1, root])
        #expect(bass.last?.time == 2)
        #expect(pitchClasses(band.noteOns.filter { $0.voice == .keys }).sorted() == [1, 4, 9])   // A C♯ E
    }

    @Test func ringingNotesRingOnUnlessTheSessionEndsNonChordTonesAtAChange() {
        for ends in [false, true] {
            let c = configuration(key("C major")) { $0.endsNonChordTones = ends }
            var band = Band(configuration: c, voices: cMajorVoices(keysLength: 3))
            band.start()
            for hit in keyHits(at: 0.1, tones: 1...3) { band.play(hit) }   // C E G, ringing for 3 s
            // E major's I is E G♯ B: C and G are not tones of it, E is.
            let e = configuration(key("E major")) { $0.endsNonChordTones = ends }
            band.performer.changeKey(to: e, at: 0.5, scheduler: &band.scheduler)
            band.run(through: 1)
            band.finish(at: 5)
            let ended = band.events.filter { $0.kind == .off && $0.voice == .keys && $0.time == 0.5 }
            #expect(pitchClasses(ended).sorted() == (ends ? [0, 7] : []), "endsNonChordTones \(ends)")
            // Every key note still ends exactly once.
            let ons = band.events.filter { $0.kind == .on && $0.voice == .keys }.count
            let offs = band.events.filter { $0.kind == .off && $0.voice == .keys }.count
            #expect(ons == offs)
        }
    }

    @Test func theMelodyGoesOnFromTheNewScalesNearestNote() {
        let melodic: (inout PerformerConfiguration) -> Void = { $0.melodicSteps = [-2, -1, 1, 2] }
        var band = Band(configuration: configuration(key("C major"), melodic))
        band.start()
        band.play(Hit(time: 0.1, ball: 1, target: .key(number: 3, tone: 3), speed: 5))   // from C4 one step up: D4
        #expect(band.noteOns.filter { $0.voice == .keys }.map(\.note) == [62])
        let dFlat = configuration(key("Db major"), melodic)
        band.performer.changeKey(to: dFlat, at: 0.2, scheduler: &band.scheduler)
        band.play(Hit(time: 0.3, ball: 1, target: .key(number: 3, tone: 3), speed: 5))
        // D4 is not in D♭ major: of the nearest, D♭4 and E♭4, the lower is taken; one step up: E♭4.
        #expect(band.noteOns.filter { $0.voice == .keys }.map(\.note) == [62, 63])
    }

    @Test func theSameHitsAndChangesGiveTheSameNotesAndOtherChangesOtherNotes() throws {
        func play(changes: [(time: Double, key: Key)]) -> (events: [NoteEvent], applied: [Double]) {
            var c = configuration(key("C major")) { $0.voicing = .smooth }
            c.chordChange = .beat
            var band = Band(configuration: c, clock: Clock(tempo: 100, grid: Grid("1/16")!))
            band.start()
            var pending = changes
            var applied: [Double] = []
            var random = 12345 as UInt64
            for step in 1...400 {
                let time = Double(step) * 0.02
                if let change = pending.first, change.time <= time {
                    var next = configuration(change.key) { $0.voicing = .smooth }
                    next.chordChange = .beat
                    band.performer.changeKey(to: next, at: time, scheduler: &band.scheduler)
                    pending.removeFirst()
                    applied.append(time)
                }
                random = random &* 6364136223846793005 &+ 1442695040888963407
                let pick = Int(random >> 33) % 9
                if pick < 7 && step % 5 == 0 {
                    band.play(Hit(time: time, ball: 0, target: .degree(pick + 1), speed: 1))
                } else if pick < 5 {
                    band.play(Hit(time: time, ball: 1 + pick % 4, target: .key(number: 1 + pick % 4, tone: 1 + pick % 4), speed: 4))
                } else {
                    band.run(through: time)
                }
            }
            band.finish(at: 9)
            return (band.events, applied)
        }
        let changes = [(time: 2.5, key: key("F# dorian")), (time: 5.0, key: key("Bb harmonic minor"))]
        let (a, applied) = play(changes: changes)
        let same = a == play(changes: changes).events
        let none = a == play(changes: []).events
        let other = a == play(changes: [(time: 2.5, key: key("F# lydian")), (time: 5.0, key: key("Bb harmonic minor"))]).events
        #expect(same && !none && !other)
        // Every note sounding from a change on (queued ones too) is in the key of its time;
        // the bass roots as well.
        try #require(applied.count == 2)
        let sounding = a.filter { $0.kind == .on && $0.time >= applied[0] }
        #expect(sounding.count > 40)
        for note in sounding {
            let inForce = note.time >= applied[1] ? key("Bb harmonic minor") : key("F# dorian")
            #expect(inForce.contains(PitchClass(note.note)), "\(note.voice) \(note.note) at \(note.time) is not in \(inForce)")
        }
    }
}
