// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import Escaping
import FileOutput
import Performance
import Text
import Theory
import Vocabulary

/// Writes the session as a LilyPond score: a chord-names line from the session's chord
/// events (LilyPond chord mode, each chord's own name in a comment beside it) over one staff
/// per melodic voice of the table (the bass in the bass clef, the keys and any voice above
/// middle C in the treble clef; percussion is left out), in the session's key, meter and
/// tempo. Note and chord times are quantised to sixteenths at the session's opening tempo;
/// notes crossing a bar line (or another note's start or end) are split and tied, silences
/// are rests. Notes are spelled in the key. The file is written atomically at the end.
package final class ScoreWriter: SessionSink {
    /// A note as engraved: MIDI note number, first and last-plus-one sixteenth.
    struct Note: Hashable {
        var pitch: Int
        var start: Int
        var end: Int
    }

    private let file: AtomicFile
    private let plan: SessionPlan
    private let sixteenth: Double
    /// The melodic voices (table rows), each with its notes; sounding notes by (voice, pitch): start time.
    private var notes: [VoiceID: [Note]] = [:]
    private var sounding: [VoiceID: [Int: Double]] = [:]
    private var chords: [(slot: Int, event: ChordEvent)] = []

    /// Opens `path` (a temporary is created now, so a bad path fails before the session runs).
    package init(path: String, plan: SessionPlan) throws(SessionError) {
        do {
            file = try AtomicFile(path: path)
        } catch {
            throw .cannotCreate("cannot write score: \(error)")
        }
        self.plan = plan
        sixteenth = plan.clock.quarterSeconds / 4
    }

    private func slot(_ time: Double) -> Int { Int((time / sixteenth).rounded()) }

    package func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            switch event {
            case .note(let note) where plan.voices[note.voice].source != .percussion:
                if note.kind == .on {
                    end(note.voice, note.note, at: note.time)
                    sounding[note.voice, default: [:]][note.note] = note.time
                } else if note.kind == .off {
                    end(note.voice, note.note, at: note.time)
                }
            case .chord(let chord):
                let slot = slot(chord.time)
                if chords.last?.slot == slot { chords.removeLast() }
                chords.append((slot, chord))
            default:
                break
            }
        }
    }

    /// Ends the sounding note `pitch` of `voice` at `time`, if any.
    private func end(_ voice: VoiceID, _ pitch: Int, at time: Double) {
        guard let start = sounding[voice]?.removeValue(forKey: pitch) else { return }
        let first = slot(start)
        notes[voice, default: []].append(Note(pitch: pitch, start: first, end: max(slot(time), first + 1)))
    }

    package func finish(at time: Double) throws(SessionError) {
        for (voice, pitches) in sounding {
            for pitch in pitches.keys.sorted() { end(voice, pitch, at: time) }
        }
        let text = LilyPond(plan: plan, notes: notes, chords: chords.map(\.event), chordSlots: chords.map(\.slot),
                            length: max(slot(time), 1)).text
        do {
            try file.write(text)
            try file.commit()
        } catch {
            throw .io("cannot write score: \(error)")
        }
    }

    package func abandon() { file.abandon() }
}

/// The LilyPond text of a score (see `ScoreWriter`).
struct LilyPond {
    let plan: SessionPlan
    let notes: [VoiceID: [ScoreWriter.Note]]
    let chords: [ChordEvent]
    let chordSlots: [Int]
    /// The session's length in sixteenths.
    let length: Int

    /// Sixteenths in a bar of the session's meter (4/4: 16, 6/8: 12, 7/8: 14).
    private var bar: Int { plan.clock.meter.beats * 16 / plan.clock.meter.unit }

    var text: String {
        let meter = plan.clock.meter
        var lines = ["\\version \"2.24.0\"", "",
                     "\\header {",
                     "  title = \(Self.string(plan.name))",
                     "  subtitle = \(Self.string("seed \(plan.seed), \(plan.key.name(.ascii)), \(Format.plain(plan.clock.tempo)) bpm"))",
                     "  tagline = ##f",
                     "}", "",
                     "global = { \\key \(Self.noteName(plan.key.spelledTonic)) \(Self.mode(plan.key.scale)) "
                        + "\\time \(meter.beats)/\(meter.unit) \\tempo 4 = \(Int(plan.clock.tempo.rounded())) }", "",
                     "\\score {", "  <<"]
        lines += chordLines()
        for voice in staffOrder() {
            let row = plan.voices[voice]
            let clef = clef(of: voice)
            lines.append("    \\new Staff \\with { instrumentName = \(Self.string(row.name)) } {")
            lines.append("      \\clef \(clef) \\global")
            lines += music(notes[voice] ?? []).map { "      " + $0 }
            lines.append("    }")
        }
        lines += ["  >>", "  \\layout { }", "}", ""]
        return lines.joined(separator: "\n")
    }

    /// The melodic voices, treble staves above bass staves, each group in table order.
    private func staffOrder() -> [VoiceID] {
        let melodic = plan.voices.voices.indices.map { VoiceID(rawValue: $0) }.filter { plan.voices[$0].source != .percussion }
        return melodic.filter { clef(of: $0) == "treble" } + melodic.filter { clef(of: $0) == "bass" }
    }

    /// The bass ball's voice, and any voice whose median note is below middle C, in the bass clef.
    private func clef(of voice: VoiceID) -> String {
        if plan.voices[voice].source == .bassBall { return "bass" }
        let pitches = (notes[voice] ?? []).map(\.pitch).sorted()
        return pitches.isEmpty || pitches[pitches.count / 2] >= 60 ? "treble" : "bass"
    }

    /// The chord-names line: a skip before the first chord, then each chord from its sixteenth
    /// to the next one's, split at bar lines (a repeated name is not printed again).
    private func chordLines() -> [String] {
        var lines = ["    \\new ChordNames \\chordmode {", "      \\set chordChanges = ##t"]
        var position = 0
        if let first = chordSlots.first, first > 0 {
            lines.append("      " + pieces(from: 0, to: min(first, length)).map { "s" + $0 }.joined(separator: " "))
            position = first
        }
        for (index, chord) in chords.enumerated() where chordSlots[index] < length {
            let end = index + 1 < chords.count ? min(chordSlots[index + 1], length) : length
            let token = Self.chordToken(chord)
            let durations = pieces(from: position, to: end).map { token.root + $0 + token.quality }
            if !durations.isEmpty {
                lines.append("      " + durations.joined(separator: " ") + " % \(chord.name) (\(chord.numeral))")
            }
            position = max(position, end)
        }
        lines.append("    }")
        return lines
    }

    /// One staff's music, a line per bar: chords of the notes sounding between consecutive
    /// starts, ends and bar lines, tied where a note goes on; rests where none sounds.
    func music(_ voiceNotes: [ScoreWriter.Note]) -> [String] {
        let notes = Self.normalised(voiceNotes).filter { $0.start < length }   // by start
        var boundaries = Set(stride(from: 0, through: length, by: bar))
        for note in notes {
            boundaries.insert(note.start)
            boundaries.insert(min(note.end, length))
        }
        boundaries.insert(length)
        let points = boundaries.sorted()
        var lines: [String] = []
        var line: [String] = []
        var next = 0
        var active: [ScoreWriter.Note] = []
        for (a, b) in zip(points, points.dropFirst()) {
            active.removeAll { $0.end <= a }
            while next < notes.count && notes[next].start <= a {
                active.append(notes[next])
                next += 1
            }
            line += segment(active.sorted { $0.pitch < $1.pitch }, from: a, to: b)
            if b % bar == 0 || b == length {
                lines.append(line.joined(separator: " ") + (b % bar == 0 ? " |" : ""))
                line = []
            }
        }
        return lines
    }

    /// The notes of one segment [a, b): a rest, or the sounding notes as one chord, tied
    /// across the segment's pieces and, note by note, into the next segment.
    private func segment(_ sounding: [ScoreWriter.Note], from a: Int, to b: Int) -> [String] {
        let durations = pieces(from: a, to: b)
        guard !sounding.isEmpty else { return durations.map { "r" + $0 } }
        return durations.enumerated().map { index, duration in
            let isLast = index == durations.count - 1
            let names = sounding.map { note in
                pitchName(note.pitch) + (isLast && note.end > b && sounding.count > 1 ? "~" : "")
            }
            let body = sounding.count == 1 ? names[0] : "<" + names.joined(separator: " ") + ">"
            let tiesAll = !isLast || (sounding.count == 1 && sounding[0].end > b)
            return body + duration + (tiesAll ? "~" : "")
        }
    }

    /// The span [a, b) as LilyPond durations, longest first within each beat-free bar:
    /// whole, dotted half, half, dotted quarter, quarter, dotted eighth, eighth, sixteenth.
    private func pieces(from a: Int, to b: Int) -> [String] {
        let values: [(Int, String)] = [(16, "1"), (12, "2."), (8, "2"), (6, "4."), (4, "4"), (3, "8."), (2, "8"), (1, "16")]
        var result: [String] = []
        var position = a
        while position < b {
            let room = min(b, (position / bar + 1) * bar) - position
            let (length, name) = values.first { $0.0 <= room }!
            result.append(name)
            position += length
        }
        return result
    }

    /// One note per pitch at a time: a note struck again while sounding ends at the new start;
    /// two strikes on one sixteenth are one note, the longer.
    static func normalised(_ notes: [ScoreWriter.Note]) -> [ScoreWriter.Note] {
        var result: [ScoreWriter.Note] = []
        var last: [Int: Int] = [:]   // pitch → index in result
        for note in notes.sorted(by: { ($0.start, $0.pitch, $0.end) < ($1.start, $1.pitch, $1.end) }) {
            if let index = last[note.pitch], result[index].end > note.start {
                if result[index].start == note.start {
                    result[index].end = max(result[index].end, note.end)
                    continue
                }
                result[index].end = note.start
            }
            last[note.pitch] = result.count
            result.append(note)
        }
        return result
    }

    /// A MIDI note spelled in the session's key, in LilyPond's absolute octaves (c' is middle C).
    private func pitchName(_ midi: Int) -> String {
        let spelled = plan.key.spell(Pitch(midi: midi))
        let marks = spelled.octave - 3
        return Self.noteName(spelled.spelling) + String(repeating: marks > 0 ? "'" : ",", count: abs(marks))
    }

    /// LilyPond's (Dutch) name of a pitch class: c, cis, ees, bisis, …
    static func noteName(_ spelled: SpelledPitchClass) -> String {
        spelled.letterName.lowercased() + String(repeating: spelled.accidental > 0 ? "is" : "es", count: abs(spelled.accidental))
    }

    /// A chord in chord mode: its root spelled as in its name, and its quality's modifier.
    static func chordToken(_ event: ChordEvent) -> (root: String, quality: String) {
        let root = event.key.spelledTones(of: event.chord).first ?? event.key.spell(event.chord.root)
        return (noteName(root), qualities[event.chord.quality] ?? qualities[event.chord.triad.quality] ?? ":1.5")
    }

    /// Chord-mode modifiers of the catalog's qualities.
    static let qualities: [ChordQuality: String] = [
        .major: "", .minor: ":m", .diminished: ":dim", .augmented: ":aug", .suspended2: ":sus2", .suspended4: ":sus4",
        .major7: ":maj7", .minor7: ":m7", .dominant7: ":7", .halfDiminished7: ":m7.5-", .diminished7: ":dim7",
        .minorMajor7: ":m7+", .augmentedMajor7: ":maj7.5+", .major6: ":6", .minor6: ":m6", .added9: ":9^7",
        .dominant9: ":9", .major9: ":maj9", .minor9: ":m9",
    ]

    /// LilyPond's mode for a scale (pentatonic and blues scales take their parent's signature).
    static func mode(_ scale: Scale) -> String {
        switch scale.name {
        case "dorian", "phrygian", "lydian", "mixolydian", "locrian": return "\\" + scale.name
        case "minor", "harmonicMinor", "melodicMinor", "minorPentatonic", "blues": return "\\minor"
        default: return "\\major"
        }
    }

    /// A LilyPond string literal (`Escape.lilyPond`: per Unicode scalar).
    static func string(_ text: String) -> String { Escape.lilyPond(text) }
}
