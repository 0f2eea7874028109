// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import EventLog
import MIDIFile
import Performance
import Text
import Vocabulary

/// One labelled span: seconds from the start, seconds long, a value.
struct LabelSpan: Equatable {
    var time: Double
    var duration: Double
    var value: JSONValue
}

/// The labels of one item, from its event log (chords, key, tempo changes), its MIDI file
/// (notes with their lengths, per voice) and its tempo, meter and form (beats and sections, on
/// the session's clock, so a scene's tempo change moves them): what the session chose, exactly.
struct ItemLabels {
    /// Seconds the labels cover: the audio's length when the item has audio (its tail rings
    /// on after the session), else the session's (a session with an ending runs on to the end
    /// of a phrase and its last notes ring, so the MIDI file's end when later). Chords, keys,
    /// tempi and sections last to here; beats stop where the session does.
    var duration: Double
    var chords: [LabelSpan] = []
    var keys: [LabelSpan] = []
    /// Beats: value = position in the bar, 1…beats.
    var beats: [LabelSpan] = []
    /// Tempo in quarter notes a minute, a span per tempo.
    var tempi: [LabelSpan] = []
    /// The form's sections (value = the section's letter), none without a form.
    var sections: [LabelSpan] = []
    /// Per voice (MIDI track name, lower case): value = MIDI note.
    var notes: [(voice: String, spans: [LabelSpan])] = []

    /// Reads the log at `eventsPath` and the MIDI file at `midiPath`; `audioSeconds` is the
    /// length of the item's audio file, if it has one.
    /// - Throws: `.data` (65) / `.noInput` (66) naming the file.
    init(eventsPath: String, midiPath: String, tempo: Double, meter: Meter, form: FormPlan?, ring: Double, duration: Double,
         audioSeconds: Double? = nil) throws(SessionError) {
        let contents: MIDIFileContents
        do { contents = try MIDIFileReader.read(path: midiPath) } catch { throw .data("\(Quote.text(midiPath)): \(error)") }
        let lastTick = contents.tracks.compactMap { $0.last?.tick }.max() ?? 0
        let sessionEnd = max(duration, contents.tempoMap.seconds(atTick: lastTick))
        self.duration = max(sessionEnd, audioSeconds ?? 0)
        var chordLines: [EventLogRecord] = []
        var tempoChanges: [(time: Double, tempo: Double)] = []
        let bytes = try FileBytes.read(eventsPath, what: "event log")
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
            let record = try EventLogRecord(parsing: Array(line), path: eventsPath, line: number + 1)
            if record.kind == "chord" { chordLines.append(record) }
            if record.kind == "control", record.control == "tempo", let value = record.value { tempoChanges.append((record.t, value)) }
        }
        chords = Self.spans(chordLines.map { ($0.t, JSONValue.string(Harte.chord(root: $0.root ?? "N", intervals: $0.intervals ?? []))) }, end: self.duration)
        keys = Self.spans(chordLines.map { ($0.t, JSONValue.string(Harte.key(tonic: $0.tonic ?? "C", mode: $0.mode ?? "major"))) }, end: self.duration)
        tempi = Self.spans([(0, JSONValue.number(tempo))] + tempoChanges.map { ($0.time, JSONValue.number($0.tempo)) }, end: self.duration)
        // An ending's last notes ring past the end of the last phrase: no beat or section starts there.
        let musicalEnd = sessionEnd - ring - 1e-3
        let times = Self.beatTimes(tempo: tempo, meter: meter, changes: tempoChanges, until: musicalEnd)
        beats = times.enumerated().map { index, time in
            LabelSpan(time: time, duration: 0, value: .number(Double(index % meter.beats + 1)))
        }
        if let form, !form.sections.isEmpty {
            let letters = Array(form.letters), phrase = form.bars * meter.beats
            let starts = stride(from: 0, to: times.count, by: phrase).map { times[$0] }
            // One span per section, even where a letter follows itself (AABB: A, A, B, B).
            let end = self.duration
            sections = starts.enumerated().map { index, start in
                let next = index + 1 < starts.count ? starts[index + 1] : end
                return LabelSpan(time: start, duration: next - start, value: .string(String(letters[index % letters.count])))
            }
        }
        notes = Self.notes(contents)
    }

    /// The session's beats before `end`, as its clock counts them: the quarter notes counted
    /// so far stay at a tempo change, and the beats after it follow the new tempo.
    static func beatTimes(tempo: Double, meter: Meter, changes: [(time: Double, tempo: Double)], until end: Double) -> [Double] {
        var clock = Clock(tempo: tempo, meter: meter)
        var pending = changes[...]
        var times: [Double] = []
        while true {
            var time = clock.beatTime(times.count)
            while let change = pending.first, change.time < time - 1e-9 {
                clock.changeTempo(to: change.tempo, at: change.time)
                pending.removeFirst()
                time = clock.beatTime(times.count)
            }
            guard time < end else { return times }
            times.append(time)
        }
    }

    /// Spans from (time, value) changes: a value lasts until the next different one, the last until `end`.
    static func spans(_ changes: [(Double, JSONValue)], end: Double) -> [LabelSpan] {
        var spans: [LabelSpan] = []
        for (time, value) in changes where time < end {
            if let last = spans.last, last.value == value { continue }
            if !spans.isEmpty { spans[spans.count - 1].duration = time - spans[spans.count - 1].time }
            spans.append(LabelSpan(time: time, duration: 0, value: value))
        }
        if !spans.isEmpty { spans[spans.count - 1].duration = end - spans[spans.count - 1].time }
        return spans
    }

    /// Every note of every track of a MIDI file, with its length (note-on to its note-off).
    static func notes(_ contents: MIDIFileContents) -> [(voice: String, spans: [LabelSpan])] {
        let tempo = contents.tempoMap
        var result: [(voice: String, spans: [LabelSpan])] = []
        for (index, track) in contents.tracks.enumerated() {
            var sounding: [Int: [(start: UInt64, note: UInt8)]] = [:]
            var spans: [LabelSpan] = []
            for event in track {
                switch event.message {
                case .noteOn(let channel, let note, let velocity) where velocity > 0:
                    sounding[Int(channel) << 8 | Int(note), default: []].append((event.tick, note))
                case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
                    let key = Int(channel) << 8 | Int(note)
                    guard let start = sounding[key]?.first else { continue }
                    sounding[key]?.removeFirst()
                    let begin = tempo.seconds(atTick: start.start)
                    spans.append(LabelSpan(time: begin, duration: tempo.seconds(atTick: event.tick) - begin, value: .number(Double(note))))
                default: continue
                }
            }
            guard !spans.isEmpty else { continue }
            spans.sort { ($0.time, $0.duration) < ($1.time, $1.duration) }
            result.append((voice: (contents.trackName(at: index) ?? "track \(index)").lowercased(), spans: spans))
        }
        return result
    }
}

/// Harte's chord syntax (`C:maj7`, `B:hdim7`, `D:(3,5,9)`) and JAMS' `key_mode` (`D:major`).
enum Harte {
    /// Shorthands mir_eval and JAMS both know, by the chord's intervals above its root.
    static let shorthands: [[Int]: String] = [
        [0, 4, 7]: "maj", [0, 3, 7]: "min", [0, 3, 6]: "dim", [0, 4, 8]: "aug", [0, 2, 7]: "sus2", [0, 5, 7]: "sus4",
        [0, 4, 7, 11]: "maj7", [0, 3, 7, 10]: "min7", [0, 4, 7, 10]: "7", [0, 3, 6, 10]: "hdim7", [0, 3, 6, 9]: "dim7",
        [0, 3, 7, 11]: "minmaj7", [0, 4, 7, 9]: "maj6", [0, 3, 7, 9]: "min6",
        [0, 4, 7, 11, 14]: "maj9", [0, 3, 7, 10, 14]: "min9", [0, 4, 7, 10, 14]: "9",
    ]

    /// Harte's degree names of the semitones above a root, 1…23.
    static let degrees = ["1", "b2", "2", "b3", "3", "4", "b5", "5", "#5", "6", "b7", "7",
                          "8", "b9", "9", "#9", "10", "11", "#11", "12", "b13", "13", "#13", "14"]

    /// The chord as Harte writes it: a shorthand where one fits, else its degrees (`C:(3,5,9)`).
    static func chord(root: String, intervals: [Int]) -> String {
        guard root != "N", !intervals.isEmpty else { return "N" }
        if let shorthand = shorthands[intervals] { return root + ":" + shorthand }
        let above = intervals.filter { $0 > 0 }.sorted().map { degrees[min($0, degrees.count - 1)] }
        return root + ":(" + above.joined(separator: ",") + ")"
    }

    /// JAMS' `key_mode`: the tonic and the nearest mode it names (church modes as such, minor
    /// scales as `minor`, major ones as `major`).
    static func key(tonic: String, mode: String) -> String {
        let lower = mode.lowercased()
        let modes = ["major", "minor", "ionian", "dorian", "phrygian", "lydian", "mixolydian", "aeolian", "locrian"]
        if modes.contains(lower) { return tonic + ":" + lower }
        if lower.contains("minor") || lower.contains("blues") { return tonic + ":minor" }
        return tonic + ":major"
    }
}
