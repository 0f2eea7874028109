import Vocabulary
import MIDIFile
import Performance
import Presets
import Session

/// One labelled span: seconds from the start, seconds long, a value.
struct LabelSpan: Equatable {
    var time: Double
    var duration: Double
    var value: JSONValue
}

/// The labels of one item, from its event log (chords, key), its MIDI file (notes with their
/// lengths, per voice) and its tempo and meter: what the session chose, exactly.
struct ItemLabels {
    /// Seconds the labels cover: the session's length.
    var duration: Double
    var tempo: Double
    var chords: [LabelSpan] = []
    var keys: [LabelSpan] = []
    /// Beats: value = position in the bar, 1…beats.
    var beats: [LabelSpan] = []
    /// Per voice (MIDI track name, lower case): value = MIDI note.
    var notes: [(voice: String, spans: [LabelSpan])] = []

    /// Reads the log at `eventsPath` and the MIDI file at `midiPath`.
    /// - Throws: `.data` (65) / `.noInput` (66) naming the file.
    init(eventsPath: String, midiPath: String, tempo: Double, meter: Meter, duration: Double) throws(SessionError) {
        self.duration = duration
        self.tempo = tempo
        var chordLines: [EventLogRecord] = []
        let bytes = try FileBytes.read(eventsPath, what: "event log")
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
            let record = try EventLogRecord(parsing: Array(line), path: eventsPath, line: number + 1)
            if record.kind == "chord" { chordLines.append(record) }
        }
        chords = Self.spans(chordLines.map { ($0.t, JSONValue.string(Harte.chord(root: $0.root ?? "N", intervals: $0.intervals ?? []))) }, end: duration)
        keys = Self.spans(chordLines.map { ($0.t, JSONValue.string(Harte.key(tonic: $0.tonic ?? "C", mode: $0.mode ?? "major"))) }, end: duration)
        let beat = 60 / tempo * 4 / Double(meter.unit)
        var k = 0
        while Double(k) * beat < duration - 1e-9 {
            beats.append(LabelSpan(time: Double(k) * beat, duration: 0, value: .number(Double(k % meter.beats + 1))))
            k += 1
        }
        notes = try Self.notes(midiPath)
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
    static func notes(_ path: String) throws(SessionError) -> [(voice: String, spans: [LabelSpan])] {
        let contents: MIDIFileContents
        do { contents = try MIDIFileReader.read(path: path) } catch { throw .data("\(Quote.text(path)): \(error)") }
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
