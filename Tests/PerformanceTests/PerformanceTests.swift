// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Theory
import Vocabulary
@testable import Performance

/// The two voices of the original app, C major, and a clock that does nothing unless told.
func cMajorVoices(keysLength: Double = 0.5, bassLength: Double = 1.0, percussion: Bool = false) -> VoiceTable {
    var rows = [
        Voice(name: "Bass", channel: 0, tone: Tone.bassCatalog[0], curve: VelocityCurve(quietSpeed: 0, loudSpeed: 2, exponent: 1),
              noteLength: bassLength, source: .bassBall),
        Voice(name: "Keys", channel: 1, tone: Tone.keysCatalog[0], curve: VelocityCurve(quietSpeed: 0.5, loudSpeed: 10, exponent: 0.7),
              noteLength: keysLength, pan: .position, source: .pianoBalls),
    ]
    if percussion {
        rows.append(Voice(name: "Drums", channel: 9, tone: Drum.kit, curve: VelocityCurve(quietSpeed: 0.5, loudSpeed: 10),
                          noteLength: 0.1, source: .percussion))
    }
    return VoiceTable(rows)
}

func cMajorConfiguration() -> PerformerConfiguration {
    PerformerConfiguration(key: Key(tonic: PitchClass(0), scale: .major), bassBase: Pitch(midi: 48), keysBase: Pitch(midi: 60),
                           voicing: .folded, bassMinimumSpeed: 0, keysMinimumSpeed: 0.3)
}

/// A performer and its scheduler, played hit by hit (each hit's step ends at the hit).
struct Band {
    var performer: Performer
    var scheduler: Scheduler
    /// A change of harmony delivered: when, and to the chord of which degree.
    struct HarmonyChange: Equatable {
        var time: Double
        var degree: Int
    }

    /// Notes delivered (the harmony's changes are in `chords`).
    var events: [NoteEvent] = []
    /// The harmony's changes delivered.
    var chords: [HarmonyChange] = []
    private var delivered: [ScheduledEvent] = []

    init(configuration: PerformerConfiguration = cMajorConfiguration(), voices: VoiceTable = cMajorVoices(),
         clock: Clock = Clock(), feel: Feel = Feel()) {
        performer = Performer(configuration: configuration, voices: voices)
        scheduler = Scheduler(voices: voices, clock: clock, feel: feel)
    }

    mutating func start() {
        performer.start(at: 0, scheduler: &scheduler)
        scheduler.deliver(through: 0, into: &delivered)
        sort()
    }

    /// Moves what was delivered into `events` and `chords`.
    private mutating func sort() {
        for event in delivered {
            switch event {
            case .note(let note): events.append(note)
            case .harmony(let time, let degree): chords.append(HarmonyChange(time: time, degree: degree))
            }
        }
        delivered.removeAll()
    }

    /// Plays a hit, then ends a step at the hit's time.
    mutating func play(_ hit: Hit) {
        performer.perform(hit, scheduler: &scheduler)
        run(through: hit.time)
    }

    mutating func run(through time: Double) {
        performer.advance(through: time, scheduler: &scheduler)
        scheduler.deliver(through: time, into: &delivered)
        sort()
    }

    mutating func finish(at time: Double) {
        scheduler.finish(at: time, into: &delivered)
        sort()
    }

    var noteOns: [NoteEvent] { events.filter { $0.kind == .on } }
}

@Suite struct PerformerTests {
    @Test func startsOnChordOneWithTheTonicInTheBass() {
        var band = Band()
        band.start()
        #expect(band.events.count == 1)
        #expect(band.events[0].kind == .on && band.events[0].voice == .bass && band.events[0].note == 48 && band.events[0].time == 0)
        #expect(band.performer.activeChord.symbol == "Cmaj7")
    }

    @Test func bassHitChangesTheActiveChordAndKeysFollowIt() {
        var band = Band()
        band.start()
        band.play(Hit(time: 1, ball: 0, target: .degree(5), speed: 2))
        #expect(band.performer.activeDegree == 5)
        #expect(band.noteOns.last?.note == 55)        // G3
        #expect(band.noteOns.last?.velocity == 127)
        // Keys 1…4 of V7 in the folded voicing: G4 B4 D4 F5.
        var notes: [Int] = []
        for tone in 1...4 {
            band.play(Hit(time: 1.1 + Double(tone), ball: 1, target: .key(number: tone, tone: tone), speed: 5))
            let last = band.noteOns.last!
            notes.append(last.note)
            #expect(last.degree == 5 && last.cause == .keyHit(key: tone, tone: tone))
        }
        #expect(notes == [67, 71, 62, 77])
    }

    @Test func restrikeEndsTheOldNoteFirst() {
        var band = Band(voices: cMajorVoices(keysLength: 2))
        band.play(Hit(time: 1.0, ball: 1, target: .key(number: 1, tone: 1), speed: 5))
        band.play(Hit(time: 1.5, ball: 2, target: .key(number: 1, tone: 1), speed: 6))
        let c4 = band.events.filter { $0.note == 60 }
        #expect(c4.map(\.kind) == [.on, .off, .on])
        #expect(c4[1].time == 1.5)
        #expect(band.scheduler.soundingCount == 1)
        // Only one note-off remains for C4, at 1.5 + 2.
        band.events.removeAll()
        band.run(through: 10)
        #expect(band.events.count == 1 && band.events[0].time == 3.5 && band.events[0].kind == .off)
    }

    @Test func everyNoteOnGetsExactlyOneNoteOffInTimeOrder() {
        for clock in [Clock(), Clock(grid: Grid("1/16")!, swing: 0.3), Clock(tempo: 97, meter: Meter("7/8")!, grid: Grid("1/8t")!, strength: 0.6)] {
            var band = Band(clock: clock)
            band.start()
            var t = 0.0
            var generator = 12345
            for _ in 0..<500 {
                generator = (generator &* 1103515245 &+ 12345) & 0x7FFF_FFFF
                t += Double(generator % 300) / 1000
                let target: Hit.Target = generator % 5 == 0 ? .degree(1 + generator % 7) : .key(number: 1 + generator % 4, tone: 1 + generator % 4)
                band.play(Hit(time: t, ball: 1, target: target, speed: Double(generator % 90) / 10))
            }
            band.finish(at: t + 5)
            #expect(zip(band.events, band.events.dropFirst()).allSatisfy { $0.time <= $1.time })
            var sounding: Set<Int> = []
            for event in band.events {
                let id = event.voice.rawValue * 128 + event.note
                if event.kind == .on {
                    #expect(!sounding.contains(id), "doubled note \(event.note) at \(event.time)")
                    #expect(event.time >= event.hit, "a note sounds before its hit")
                    sounding.insert(id)
                } else {
                    #expect(sounding.remove(id) != nil, "note-off without note-on at \(event.time)")
                }
            }
            #expect(sounding.isEmpty)
        }
    }

    @Test func slowKeyContactsAreNotHits() {
        var band = Band()
        band.play(Hit(time: 1, ball: 1, target: .key(number: 1, tone: 1), speed: 0.1))
        #expect(band.noteOns.isEmpty)
        band.play(Hit(time: 1, ball: 1, target: .key(number: 1, tone: 1), speed: 0.31))
        #expect(band.noteOns.count == 1)
    }

    @Test func keysSpreadByPositionOwnOneChannelPerZoneAndSendNoControllers() {
        var band = Band()
        band.play(Hit(time: 1, ball: 1, target: .key(number: 1, tone: 1), speed: 5))
        band.play(Hit(time: 3, ball: 1, target: .key(number: 4, tone: 4), speed: 5))
        // (No pan change can be sent while notes ring: a controller is never a note event.)
        var keys = Voice(name: "Keys", channel: 1, tone: Tone.keys(named: "marimba")!, curve: VelocityCurve(quietSpeed: 0.25, loudSpeed: 10.5, exponent: 0.7),
                         noteLength: 0.6, pan: .position, source: .pianoBalls)
        keys.spread(over: [1, 2, 3, 4], keyCount: 4)
        #expect(keys.channels.map(\.channel) == [1, 2, 3, 4])
        #expect(keys.channels.map(\.pan) == [13, 47, 81, 114], "zones from −0.8 to +0.8")
        #expect((1...4).map { keys.channelIndex(forKey: $0) } == [0, 1, 2, 3])
        var three = keys
        three.spread(over: [1, 2, 3, 4], keyCount: 3)
        #expect(three.channels.count == 3 && three.channels[1].pan == 64)
        var eight = keys
        eight.spread(over: [1, 2, 3, 4], keyCount: 8)
        #expect((1...8).map { eight.channelIndex(forKey: $0) } == [0, 0, 1, 1, 2, 2, 3, 3])
        var fixed = Voice(name: "Keys", channel: 1, tone: keys.tone, curve: keys.curve, noteLength: 0.6, pan: .fixed(-1), source: .pianoBalls)
        fixed.spread(over: [1, 2, 3, 4], keyCount: 4)
        #expect(fixed.channels == [Voice.Channel(channel: 1, pan: 0)] && fixed.channelIndex(forKey: 4) == 0)
        #expect(!fixed.isCentred && Voice(name: "Bass", channel: 0, tone: keys.tone, curve: keys.curve, noteLength: 1, source: .bassBall).isCentred)
    }

    @Test func dribbleGateDropsSoftQuickRestrikesOfOneBall() {
        var configuration = cMajorConfiguration()
        configuration.dribble = DribbleGate(window: 0.25, velocity: 40)
        var band = Band(configuration: configuration)
        band.play(Hit(time: 1.0, ball: 1, target: .key(number: 1, tone: 1), speed: 8))   // loud: plays
        band.play(Hit(time: 1.1, ball: 1, target: .key(number: 2, tone: 2), speed: 1))   // soft, soon: dropped
        band.play(Hit(time: 1.2, ball: 2, target: .key(number: 2, tone: 2), speed: 1))   // another ball: plays
        band.play(Hit(time: 1.3, ball: 1, target: .key(number: 3, tone: 3), speed: 8))   // loud: plays
        band.play(Hit(time: 2.0, ball: 1, target: .key(number: 3, tone: 3), speed: 1))   // soft but late: plays
        #expect(band.noteOns.map(\.hit) == [1.0, 1.2, 1.3, 2.0])
    }

    @Test func toneCatalogsHaveTheOriginalSounds() {
        for name in ["marimba", "pluck", "clav", "electric-piano", "grand-piano", "muted", "harp"] {
            #expect(Tone.keys(named: name) != nil, "missing keys tone \(name)")
        }
        #expect(Tone.keys(named: "Electric Piano")?.program == 4)
        #expect(Tone.keys(named: "marimba")?.program == 12)
        #expect(Set(Tone.keysCatalog.map(\.name)).count == Tone.keysCatalog.count)
        #expect(Tone.bassCatalog.count >= 4)
        #expect(Tone.keysCatalog.allSatisfy { (0...127).contains($0.program) })
    }
}

@Suite("Smooth voicing in the performer")
struct SmoothVoicingTests {
    func band(_ voicing: Voicing, key: Key) -> Band {
        Band(configuration: PerformerConfiguration(key: key, bassBase: Pitch(midi: 48), keysBase: Pitch(midi: 60), voicing: voicing,
                                                   bassMinimumSpeed: 0.3, keysMinimumSpeed: 0.3))
    }

    /// Mean semitones moved per chord change (least-movement matching of the four key notes) over
    /// the same 400 random degree hits under `voicing`, and whether every note stayed in `register`.
    func movement(_ voicing: Voicing, key: Key, register: ClosedRange<Int>) -> (mean: Double, inside: Bool) {
        var b = band(voicing, key: key)
        b.start()
        var state: UInt64 = 7
        var last = (1...4).map { b.performer.keysNote(degree: 1, tone: $0) }
        var total = 0, changes = 0, inside = true
        for i in 1...400 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let degree = Int(state >> 33) % 7 + 1
            let before = b.performer.activeDegree
            b.play(Hit(time: Double(i), ball: 0, target: .degree(degree), speed: 2))
            let notes = (1...4).map { b.performer.keysNote(degree: degree, tone: $0) }
            inside = inside && notes.allSatisfy { register.contains($0) }
            if degree != before {
                total += bestMatching(last, notes)
                changes += 1
            }
            last = notes
        }
        return (Double(total) / Double(changes), inside)
    }

    func bestMatching(_ a: [Int], _ b: [Int]) -> Int {
        var best = Int.max
        func permute(_ rest: [Int], _ chosen: [Int]) {
            if rest.isEmpty {
                best = min(best, zip(a, chosen).reduce(0) { $0 + abs($1.0 - $1.1) })
                return
            }
            for i in rest.indices { permute(Array(rest[..<i] + rest[(i + 1)...]), chosen + [rest[i]]) }
        }
        permute(b, [])
        return best
    }

    @Test("smooth moves less per chord change than folded, and stays in its two-octave register", arguments: [
        "C major", "Eb major", "A harmonic minor", "D dorian", "F# lydian",
    ])
    func smoothBeatsFolded(keyText: String) {
        let key = Key(parsing: keyText)!
        let register = Performer.smoothRegister(base: Pitch(midi: 60))
        let smooth = movement(.smooth, key: key, register: register)
        let folded = movement(.folded, key: key, register: 0...127)
        #expect(smooth.inside)
        #expect(smooth.mean < folded.mean, "\(key): smooth \(smooth.mean) vs folded \(folded.mean) semitones per change")
        print("voice leading \(key): smooth \(smooth.mean) folded \(folded.mean) semitones per chord change")
    }
}
