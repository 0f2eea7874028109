import Testing
import Theory
@testable import Performance

func cMajorPerformer(keysLength: Double = 0.5, bassLength: Double = 1.0) -> Performer {
    Performer(configuration: PerformerConfiguration(
        key: Key(tonic: PitchClass(0), scale: .major), bassBase: Pitch(midi: 48), keysBase: Pitch(midi: 60),
        voicing: .folded,
        bassCurve: VelocityCurve(quietSpeed: 0, loudSpeed: 2, exponent: 1),
        keysCurve: VelocityCurve(quietSpeed: 0.5, loudSpeed: 10, exponent: 0.7),
        bassNoteLength: bassLength, keysNoteLength: keysLength,
        bassMinimumSpeed: 0, keysMinimumSpeed: 0.3))
}

@Suite struct VelocityCurveTests {
    @Test func monotoneAndClamped() {
        let curve = VelocityCurve(quietSpeed: 0.5, loudSpeed: 10, exponent: 0.7)
        var previous = 0
        for i in 0...2000 {
            let speed = Double(i) * 0.01
            let v = curve.velocity(forSpeed: speed)
            #expect((1...127).contains(v))
            #expect(v >= previous, "velocity fell at \(speed) m/s")
            previous = v
        }
        #expect(curve.velocity(forSpeed: 0) == 1)
        #expect(curve.velocity(forSpeed: 0.5) == 1)
        #expect(curve.velocity(forSpeed: 10) == 127)
        #expect(curve.velocity(forSpeed: 1e9) == 127)
        #expect(curve.velocity(forSpeed: -3) == 1)
        #expect(curve.velocity(forSpeed: .nan) == 1)
        #expect(curve.velocity(forSpeed: .infinity) == 127)
    }

    @Test func linearMidpointAndExponentShape() {
        let linear = VelocityCurve(quietSpeed: 0, loudSpeed: 2, exponent: 1)
        #expect(linear.velocity(forSpeed: 1) == 64)   // 1 + 126 × 0.5
        let soft = VelocityCurve(quietSpeed: 0, loudSpeed: 2, exponent: 0.5)
        #expect(soft.velocity(forSpeed: 0.5) == 1 + Int((126 * 0.5).rounded()))  // √0.25 = 0.5
        let hard = VelocityCurve(quietSpeed: 0, loudSpeed: 2, exponent: 2)
        #expect(hard.velocity(forSpeed: 1) == 1 + Int((126 * 0.25).rounded()))
    }
}

@Suite struct PerformerTests {
    @Test func startsOnChordOneWithTheTonicInTheBass() {
        var performer = cMajorPerformer()
        var events: [NoteEvent] = []
        performer.start(at: 0, into: &events)
        #expect(events.count == 1)
        #expect(events[0].kind == .on && events[0].voice == .bass && events[0].note == 48 && events[0].time == 0)
        #expect(performer.activeChord.symbol == "Cmaj7")
    }

    @Test func bassHitChangesTheActiveChordAndKeysFollowIt() {
        var performer = cMajorPerformer()
        var events: [NoteEvent] = []
        performer.start(at: 0, into: &events)
        performer.perform(Hit(time: 1, ball: 0, target: .degree(5), speed: 2), into: &events)
        #expect(performer.activeDegree == 5)
        #expect(events.last?.note == 55)        // G3
        #expect(events.last?.velocity == 127)
        // Keys 1…4 of V7 in the folded voicing: G4 B4 D4 F5.
        var notes: [Int] = []
        for tone in 1...4 {
            performer.perform(Hit(time: 1.1 + Double(tone), ball: 1, target: .key(number: tone, tone: tone), speed: 5), into: &events)
            notes.append(events.last!.note)
            #expect(events.last?.degree == 5 && events.last?.tone == tone && events.last?.key == tone)
        }
        #expect(notes == [67, 71, 62, 77])
    }

    @Test func restrikeEndsTheOldNoteFirst() {
        var performer = cMajorPerformer(keysLength: 2)
        var events: [NoteEvent] = []
        performer.perform(Hit(time: 1.0, ball: 1, target: .key(number: 1, tone: 1), speed: 5), into: &events)
        performer.perform(Hit(time: 1.5, ball: 2, target: .key(number: 1, tone: 1), speed: 6), into: &events)
        let c4 = events.filter { $0.note == 60 }
        #expect(c4.map(\.kind) == [.on, .off, .on])
        #expect(c4[1].time == 1.5)
        #expect(performer.soundingCount == 1)
        // Only one note-off remains for C4, at 1.5 + 2.
        events.removeAll()
        performer.release(through: 10, into: &events)
        #expect(events.count == 1 && events[0].time == 3.5 && events[0].kind == .off)
    }

    @Test func everyNoteOnGetsExactlyOneNoteOffInTimeOrder() {
        var performer = cMajorPerformer()
        var events: [NoteEvent] = []
        performer.start(at: 0, into: &events)
        var t = 0.0
        var generator = 12345
        for _ in 0..<500 {
            generator = (generator &* 1103515245 &+ 12345) & 0x7FFF_FFFF
            t += Double(generator % 300) / 1000
            let target: Hit.Target = generator % 5 == 0 ? .degree(1 + generator % 7) : .key(number: 1 + generator % 4, tone: 1 + generator % 4)
            performer.perform(Hit(time: t, ball: 1, target: target, speed: Double(generator % 90) / 10), into: &events)
        }
        performer.releaseAll(at: t + 5, into: &events)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        var sounding: Set<Int> = []
        for event in events {
            let id = event.voice.rawValue * 128 + event.note
            if event.kind == .on {
                #expect(!sounding.contains(id), "doubled note \(event.note) at \(event.time)")
                sounding.insert(id)
            } else {
                #expect(sounding.remove(id) != nil, "note-off without note-on at \(event.time)")
            }
        }
        #expect(sounding.isEmpty)
    }

    @Test func slowKeyContactsAreNotHits() {
        var performer = cMajorPerformer()
        var events: [NoteEvent] = []
        performer.perform(Hit(time: 1, ball: 1, target: .key(number: 1, tone: 1), speed: 0.1), into: &events)
        #expect(events.isEmpty)
        performer.perform(Hit(time: 1, ball: 1, target: .key(number: 1, tone: 1), speed: 0.31), into: &events)
        #expect(events.count == 1)
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
    func performer(_ voicing: Voicing, key: Key) -> Performer {
        Performer(configuration: PerformerConfiguration(
            key: key, bassBase: Pitch(midi: 48), keysBase: Pitch(midi: 60), voicing: voicing,
            bassCurve: VelocityCurve(quietSpeed: 0.5, loudSpeed: 4, exponent: 1),
            keysCurve: VelocityCurve(quietSpeed: 0.5, loudSpeed: 4, exponent: 1),
            bassNoteLength: 1, keysNoteLength: 0.5, bassMinimumSpeed: 0.3, keysMinimumSpeed: 0.3))
    }

    /// Mean semitones moved per chord change (least-movement matching of the four key notes) over
    /// the same 400 random degree hits under `voicing`, and whether every note stayed in `register`.
    func movement(_ voicing: Voicing, key: Key, register: ClosedRange<Int>) -> (mean: Double, inside: Bool) {
        var p = performer(voicing, key: key)
        var events: [NoteEvent] = []
        p.start(at: 0, into: &events)
        var state: UInt64 = 7
        var last = (1...4).map { p.keysNote(degree: 1, tone: $0) }
        var total = 0, changes = 0, inside = true
        for i in 1...400 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let degree = Int(state >> 33) % 7 + 1
            let before = p.activeDegree
            p.perform(Hit(time: Double(i), ball: 0, target: .degree(degree), speed: 2), into: &events)
            let notes = (1...4).map { p.keysNote(degree: degree, tone: $0) }
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
