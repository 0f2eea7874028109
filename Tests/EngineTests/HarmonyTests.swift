// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Performance
import Physics
import TestSupport
import Testing
import Theory
import Vocabulary
@testable import Engine
#if canImport(Glibc)
import Glibc
#endif

/// The harmony a preset can steer: chords from the scale's own tones, chords per bouncer.
@Suite struct HarmonyTests {
    /// Key notes of a session with the chord each was played on.
    static func keyNotes(_ events: [SessionEvent]) -> [NoteEvent] {
        events.compactMap { event in
            if case .note(let note) = event, note.kind == .on, note.voice == .keys { return note }
            return nil
        }
    }

    @Test("for every tonic and mode, every key note is a tone of the active chord and in the scale",
          arguments: Scale.all)
    func keyNotesFitChordAndScale(scale: Scale) throws {
        var preset = try bundled("original")
        preset.piano.count = 8
        for tonic in 0..<12 {
            var overrides = Overrides()
            overrides.flags["key"] = ["C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"][tonic]
            overrides.flags["mode"] = scale.name
            let configuration = try Configuration(preset: preset, overrides: overrides, duration: 12)
            let key = configuration.preset.key
            let chords = configuration.performer.chords
            let (events, _) = try simulate(preset, duration: 12, overrides: overrides)
            let notes = Self.keyNotes(events)
            #expect(notes.count > 10, "\(key): only \(notes.count) key notes")
            for note in notes {
                let pitchClass = PitchClass(note.note)
                #expect(chords[note.degree - 1].tones.contains(pitchClass), "\(key): \(note.note) is not in \(chords[note.degree - 1])")
                #expect(key.contains(pitchClass), "\(key): \(note.note) is not in the scale")
            }
            // The bass plays the chord roots, all in the scale.
            for event in events {
                guard case .note(let note) = event, note.kind == .on, note.voice == .bass else { continue }
                #expect(key.contains(PitchClass(note.note)) && note.cause != .leadingNote, "\(key): bass \(note.note)")
            }
        }
    }

    @Test("pentatonic and blues chords are stacked from the scale's own tones")
    func scaleChords() {
        let c = Key(tonic: PitchClass(0), scale: .majorPentatonic)
        #expect(c.scaleChord(on: ScaleDegree(1)!, toneCount: 4).intervals == [0, 4, 7, 14])   // C E G D (no B)
        let a = Key(tonic: PitchClass(9), scale: .minorPentatonic)
        #expect(a.scaleChord(on: ScaleDegree(1)!, toneCount: 4).intervals == [0, 3, 7, 10])   // A C E G
        #expect(a.scaleChord(on: ScaleDegree(3)!, toneCount: 3).tones == [PitchClass(0), PitchClass(4), PitchClass(7)])
        for scale in Scale.all {
            for tonic in 0..<12 {
                let key = Key(tonic: PitchClass(tonic), scale: scale)
                for degree in key.degrees {
                    for count in 3...5 {
                        let chord = key.scaleChord(on: degree, toneCount: count)
                        #expect(chord.intervals.count == count)
                        #expect(chord.tones.allSatisfy { key.contains($0) && key.degree(of: $0) != nil }, "\(key) \(degree.number): \(chord)")
                        #expect(zip(chord.intervals, chord.intervals.dropFirst()).allSatisfy { $0 < $1 })
                    }
                }
            }
        }
    }
}

/// `bass.chords`: a chord per bouncer, and the keys that follow it.
@Suite struct ChordsPerBouncerTests {
    @Test("numerals, symbols, intervals and degree chords resolve in the key; the keys follow the largest chord")
    func chordsResolve() throws {
        let preset = try decode(#"{"key": {"tonic": "C"}, "bass": {"chords": {"2": "V/V", "4": "iv", "7": "bVII", "3": [0, 4, 7], "5": "ninth", "6": "Am"}}}"#)
        let configuration = try Configuration(preset: preset, duration: 1)
        let chords = configuration.performer.chords
        #expect(chords[1] == Chord(root: PitchClass(2), quality: .major))       // V/V = D
        #expect(chords[3] == Chord(root: PitchClass(5), quality: .minor))       // iv = Fm
        #expect(chords[6] == Chord(root: PitchClass(10), quality: .major))      // ♭VII = B♭
        #expect(chords[2] == Chord(root: PitchClass(4), quality: .major))       // E + [0 4 7]
        #expect(chords[4] == Chord(root: PitchClass(7), quality: .dominant9))   // G9
        #expect(chords[0] == Chord(root: PitchClass(0), quality: .major7))      // default Cmaj7
        #expect(configuration.preset.keys.tones == [1, 2, 3, 4, 5])
        #expect(configuration.layout.keys.count == 5)
        #expect(configuration.performer.bassNote(degree: 7) == 58)              // B♭2
    }

    @Test("triads everywhere give three keys; a fourth key plays the root an octave up")
    func triadsGiveThreeKeys() throws {
        let all = (1...7).map { "\"\($0)\": \"triad\"" }.joined(separator: ", ")
        let preset = try decode(#"{"bass": {"chords": {"# + all + #"}}}"#)
        let configuration = try Configuration(preset: preset, duration: 1)
        #expect(configuration.preset.keys.tones == [1, 2, 3])
        #expect(configuration.layout.keys.count == 3)
        let four = try decode(#"{"keys": {"tones": [1, 2, 3, 4], "voicing": "close"}, "bass": {"chords": {"# + all + #"}}}"#)
        let performer = try Configuration(preset: four, duration: 1).performer
        #expect(performer.keysNote(degree: 1, tone: 4) == performer.keysNote(degree: 1, tone: 1) + 12)
    }

    @Test("a session plays the given chords: every key note is a tone of its bouncer's chord")
    func sessionPlaysGivenChords() throws {
        let preset = try decode(#"{"piano": {"count": 8}, "bass": {"chords": {"2": "V7/V", "4": "iv", "6": "bVII"}}}"#)
        let configuration = try Configuration(preset: preset, duration: 30)
        let (events, _) = try simulate(preset, duration: 30)
        let notes = HarmonyTests.keyNotes(events)
        #expect(notes.count > 20)
        for note in notes {
            #expect(configuration.performer.chords[note.degree - 1].tones.contains(PitchClass(note.note)))
        }
    }
}

/// The rings: every bouncer within the ball's reach; the `fifths` layout and the `home` weight.
@Suite struct TonalHomeTests {
    /// Bass notes (degree, time) of a session.
    static func bassHits(_ events: [SessionEvent]) -> [(degree: Int, time: Double)] {
        events.compactMap { event in
            if case .note(let note) = event, note.kind == .on, note.voice == .bass { return (note.degree, note.time) }
            return nil
        }
    }

    @Test("the ring layout lets the ball reach every bouncer: dorian-drift plays all seven degrees in 300 s")
    func ringReachesEveryBouncer() throws {
        // The layout's reach, not the form's: without returns and cadences, every bouncer.
        var preset = try bundled("dorian-drift")
        preset.form.isOn = false
        let (events, _) = try simulate(preset, duration: 300)
        #expect(Set(Self.bassHits(events).map(\.degree)) == Set(1...7))
    }

    @Test("fifths: neighbours on the ring are a fifth apart, the tonic is `home` times larger")
    func fifthsGeometry() throws {
        let preset = try bundled("fifths-home")
        let configuration = try Configuration(preset: preset, duration: 1)
        let c = configuration.layout.bassArea.center
        // Clockwise from the top.
        let around = configuration.layout.bouncers.sorted { a, b in
            func turn(_ v: Vector) -> Double { let t = atan2(v.x - c.x, v.y - c.y); return t < 0 ? t + 2 * .pi : t }
            return turn(a.center) < turn(b.center)
        }
        #expect(around.map(\.tag) == [1, 4, 7, 3, 6, 2, 5])
        let chords = configuration.performer.chords
        // Each clockwise neighbour's root lies a diatonic fifth below (a fourth above); one of
        // the seven, IV → vii°, is the scale's diminished fifth (an augmented fourth up).
        let steps = zip(around, around.dropFirst() + [around[0]]).map { chords[$0.0.tag - 1].root.semitones(upTo: chords[$0.1.tag - 1].root) }
        #expect(steps == [5, 6, 5, 5, 5, 5, 5])
        let tonic = around.first { $0.tag == 1 }!
        #expect(abs(tonic.radius - preset.bass.home * preset.bass.bouncerRadius) < 1e-12)
        #expect(around.filter { $0.tag != 1 }.allSatisfy { $0.radius == preset.bass.bouncerRadius })
    }

    @Test("fifths-home over 300 s: every bouncer is struck, at least 40 % of chord changes fall a fifth, the tonic sounds at least 25 % of the time")
    func fifthsFall() throws {
        // The layout's runs, heard at every hit: no form, chords change at the hit.
        var preset = try bundled("fifths-home")
        preset.form.isOn = false
        preset.time.quantize = .off
        preset.time.chordChange = .hit
        let (events, _) = try simulate(preset, duration: 300)
        let hits = Self.bassHits(events)
        #expect(Set(hits.map(\.degree)) == Set(1...7))
        let changes = zip(hits, hits.dropFirst()).filter { $0.0.degree != $0.1.degree }
        let falling = changes.filter { ($0.1.degree - $0.0.degree + 7) % 7 == 3 }
        #expect(changes.count > 50)
        #expect(Double(falling.count) >= 0.4 * Double(changes.count), "\(falling.count) of \(changes.count)")
        var tonic = 0.0
        for (a, b) in zip(hits, hits.dropFirst().map(\.time) + [300]) where a.degree == 1 { tonic += b - a.time }
        #expect(tonic / 300 >= 0.25, "tonic \(tonic / 300)")
    }
}

/// `keys.mode: "melodic"`: a line along the scale.
@Suite struct MelodicKeysTests {
    @Test("the keys' steps spread from −2 to +2, every strike moving")
    func steps() {
        #expect(PerformerConfiguration.melodicSteps(keys: 4) == [-2, -1, 1, 2])
        #expect(PerformerConfiguration.melodicSteps(keys: 3) == [-2, 1, 2])
        #expect(PerformerConfiguration.melodicSteps(keys: 5) == [-2, -1, 1, 1, 2])
    }

    @Test("melodic-minor-line over 300 s: ≥ 40 % steps of 1–2 semitones, ≤ 10 % leaps of 8+, strong beats on chord tones, every note in the scale and the register")
    func melody() throws {
        // The keys' line alone, in the world it was written for (no melody voice on top, no
        // form, balls that dribble out unheard).
        var preset = try bundled("melodic-minor-line")
        preset.melody.isOn = false
        preset.form.isOn = false
        preset.piano.takeUp = false
        preset.piano.restitution = 0.98
        preset.keys.minimumSpeed = 0.25
        preset.time.velocityFloor = 0
        let configuration = try Configuration(preset: preset, duration: 300)
        let plan = SessionPlan(configuration: configuration)
        let (events, _) = try simulate(preset, duration: 300)
        let notes = HarmonyTests.keyNotes(events)
        #expect(notes.count > 500)
        let intervals = zip(notes, notes.dropFirst()).map { abs($0.1.note - $0.0.note) }
        let steps = intervals.filter { (1...2).contains($0) }.count
        let leaps = intervals.filter { $0 >= 8 }.count
        #expect(Double(steps) >= 0.4 * Double(intervals.count), "\(steps) of \(intervals.count)")
        #expect(Double(leaps) <= 0.1 * Double(intervals.count), "\(leaps) of \(intervals.count)")
        let register = Performer.smoothRegister(base: preset.keys.register)
        var strong = 0
        for note in notes {
            #expect(register.contains(note.note) && configuration.preset.key.contains(PitchClass(note.note)))
            guard let beat = plan.clock.beatInBar(at: note.time), beat == 0 || plan.clock.meter.strongBeats.contains(beat) else { continue }
            strong += 1
            #expect(configuration.performer.chords[note.degree - 1].tones.contains(PitchClass(note.note)), "\(note.time): \(note.note)")
        }
        #expect(strong > 50)
    }
}

/// The second voice: every key note doubled a diatonic third or sixth away.
@Suite struct SecondVoiceTests {
    @Test("each key note sounds with a second-voice note the scale's third or sixth away, on its own channel",
          arguments: [(-3, "Eb", "major"), (3, "F#", "dorian"), (-6, "A", "harmonicMinor"), (6, "Bb", "mixolydian")])
    func doubled(interval: Int, tonic: String, mode: String) throws {
        let preset = try decode(#"{"key": {"tonic": "\#(tonic)", "scale": "\#(mode)"}, "second": {"interval": \#(interval), "tone": "celesta"}}"#)
        let configuration = try Configuration(preset: preset, duration: 20)
        let plan = SessionPlan(configuration: configuration)
        let key = configuration.preset.key
        #expect(plan.voices.count == 3 && plan.voices.voices[2].source == .derived)
        // Its own channel: the keys spread by position own MIDI 2–5, so the second voice takes 6.
        #expect(plan.voices.voices[1].channels.map(\.channel) == [1, 2, 3, 4] && plan.voices.voices[2].channels.map(\.channel) == [5])
        let (events, _) = try simulate(preset, duration: 20)
        let ons = events.compactMap { event -> NoteEvent? in
            if case .note(let note) = event, note.kind == .on { return note }
            return nil
        }
        let keys = ons.filter { $0.voice == .keys }
        let seconds = ons.filter { $0.voice.rawValue == 2 }
        #expect(keys.count > 20 && seconds.count == keys.count)
        let scale = (0...127).filter { key.contains(PitchClass($0)) }
        for (k, s) in zip(keys, seconds) {
            #expect(k.time == s.time && k.velocity == s.velocity)
            #expect(key.contains(PitchClass(s.note)))
            let steps = scale.firstIndex(of: s.note)! - scale.firstIndex(of: k.note)!
            #expect(steps == (abs(interval) - 1) * (interval < 0 ? -1 : 1), "\(k.note) → \(s.note)")
        }
    }

    @Test("no two voices share a MIDI channel: the keys' pan zones follow the key count (five keys for ninths), the second voice takes the next free channel, never the drums' 10",
          arguments: [(#""keys": {"tones": [1, 2, 3, 4, 5]}, "bass": {"chords": {"1": "ninth"}}"#, [1, 2, 3, 4, 5], 6),
                      (#""keys": {"tones": [1, 2, 3]}"#, [1, 2, 3], 4),
                      (#""keys": {"pan": 0.3}"#, [1], 2),
                      (#""percussion": {"metronome": true}"#, [1, 2, 3, 4], 5)])
    func channels(fields: String, keys: [Int], second: Int) throws {
        let preset = try decode(#"{\#(fields), "second": {"interval": 3}}"#)
        let plan = SessionPlan(configuration: try Configuration(preset: preset, duration: 5))
        let table = plan.voices
        #expect(table[.keys].channels.map(\.channel) == keys)
        let derived = try #require(table.id(of: .derived))
        #expect(table[derived].channels.map(\.channel) == [second])
        let all = table.voices.flatMap { $0.channels.map(\.channel) }
        #expect(Set(all).count == all.count, "channels shared: \(all)")
        if let drums = table.id(of: .percussion) { #expect(table[drums].channels.map(\.channel) == [9]) }
        // With five keys spread by position, each key has a pan zone of its own, left to right.
        if keys.count > 1 { #expect(table[.keys].keyZones == Array(0..<keys.count)) }
    }

    @Test("in a pentatonic scale the third and sixth are counted on the parent scale, then moved to a scale tone")
    func pentatonic() {
        let g = Key(tonic: PitchClass(7), scale: .majorPentatonic)   // G A B D E
        let sixthBelow = Voice.Rule.diatonic(-6).notes(in: g)
        let thirdBelow = Voice.Rule.diatonic(-3).notes(in: g)
        #expect(sixthBelow[74] == 64)   // D5 → F♯4 is not in the scale → E4
        #expect(thirdBelow[74] == 71)   // D5 → B4
        #expect(thirdBelow[67] == 64)   // G4 → E4
        for note in 0...127 where g.contains(PitchClass(note)) {
            #expect(g.contains(PitchClass(sixthBelow[note])) && g.contains(PitchClass(thirdBelow[note])))
            #expect(sixthBelow[note] < note && thirdBelow[note] < note || note < 12)
        }
    }
}

/// Leading notes: an approach in the bass a grid step before a new root.
@Suite struct LeadingNoteTests {
    static func bass(_ events: [SessionEvent]) -> [NoteEvent] {
        events.compactMap { event in
            if case .note(let note) = event, note.kind == .on, note.voice == .bass { return note }
            return nil
        }
    }

    @Test("each leading note sounds one grid line before a new root, never before its hit, the way asked",
          arguments: ["chromatic-below", "chromatic-above", "diatonic-below", "diatonic-above"])
    func approaches(kind: String) throws {
        let preset = try decode(#"{"key": {"tonic": "D", "scale": "dorian"}, "time": {"quantize": "1/8", "chordChange": "bar"}, "bass": {"approach": "\#(kind)"}}"#)
        let configuration = try Configuration(preset: preset, duration: 120)
        let key = configuration.preset.key
        let step = SessionPlan(configuration: configuration).clock.stepSeconds
        let notes = Self.bass(try simulate(preset, duration: 120).events)
        let leading = notes.indices.filter { notes[$0].cause == .leadingNote }
        #expect(leading.count >= 3)
        var matched = 0
        defer { #expect(matched >= 3) }
        for index in leading {
            let lead = notes[index]
            let root = notes[index + 1]
            #expect(root.cause != .leadingNote && root.degree != lead.degree)
            #expect(abs(root.time - step - lead.time) < 1e-9 && lead.time >= lead.hit)
            // A hit after the leading note sounded may still change the chord on the line: the
            // approach was to the root chosen when it sounded.
            guard root.hit == lead.hit else { continue }
            matched += 1
            switch kind {
            case "chromatic-below": #expect(lead.note == root.note - 1)
            case "chromatic-above": #expect(lead.note == root.note + 1)
            case "diatonic-below": #expect(lead.note < root.note && root.note - lead.note <= 2 && key.contains(PitchClass(lead.note)))
            default: #expect(lead.note > root.note && lead.note - root.note <= 2 && key.contains(PitchClass(lead.note)))
            }
        }
    }

    @Test("no leading notes without a grid: the root sounds at the hit")
    func noRoomWithoutGrid() throws {
        let preset = try decode(#"{"bass": {"approach": "chromatic-below"}}"#)
        #expect(Self.bass(try simulate(preset, duration: 60).events).allSatisfy { $0.cause != .leadingNote })
    }
}

/// Smooth voicing on a real session's chord sequence.
@Suite struct SessionVoicingTests {
    @Test("on fifths-home's 300 s chord sequence, smooth voicing moves less than folded and stays in its register")
    func smoothMovesLess() throws {
        let preset = try bundled("fifths-home")
        let configuration = try Configuration(preset: preset, duration: 300)
        let chords = configuration.performer.chords
        let hits = TonalHomeTests.bassHits(try simulate(preset, duration: 300).events)
        var degrees: [Int] = []
        for hit in hits where degrees.last != hit.degree { degrees.append(hit.degree) }
        #expect(degrees.count > 50)
        let register = Performer.smoothRegister(base: preset.keys.register)
        var leader = VoiceLeader(register: register)
        var smooth: [[Int]] = []
        var folded: [[Int]] = []
        for degree in degrees {
            smooth.append(leader.voice(chords[degree - 1]).map(\.midi))
            folded.append(Voicing.folded.pitches(of: chords[degree - 1], base: preset.keys.register).map(\.midi))
        }
        func mean(_ voicings: [[Int]]) -> Double {
            let moves = zip(voicings, voicings.dropFirst()).map { VoiceLeader.movement(from: $0.0.sorted(), to: $0.1.sorted()) }
            return Double(moves.reduce(0, +)) / Double(moves.count)
        }
        let smoothMean = mean(smooth)
        let foldedMean = mean(folded)
        print("fifths-home, \(degrees.count) chords: mean movement smooth \(smoothMean), folded \(foldedMean) semitones")
        #expect(smoothMean < foldedMean)
        #expect(smooth.allSatisfy { $0.allSatisfy { register.contains($0) } })
    }
}
