// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import EventLog
import FileOutput
import MIDIFile
import Performance
import Pictures
import Sinks
import Text
import Theory
#if canImport(Glibc)
import Glibc
#endif

/// What `clumsy roll` was asked to draw.
public struct RollRequest: Sendable {
    /// A Standard MIDI File (.mid) or an event log (.jsonl).
    public var inputPath: String
    /// Output file (.png, .svg or .pdf).
    public var outputPath: String
    /// Canvas size.
    public var size: PictureSize
    /// For event logs: the preset that gives key, tempo and note lengths (default `default`).
    public var preset: String?

    /// The default size of a piano roll, 1600×600.
    public static let defaultSize = PictureSize(width: 1600, height: 600)

    /// Creates a request.
    public init(inputPath: String, outputPath: String, size: PictureSize = RollRequest.defaultSize, preset: String? = nil) {
        self.inputPath = inputPath
        self.outputPath = outputPath
        self.size = size
        self.preset = preset
    }
}

/// Builds piano rolls from Clumsy's MIDI files and event logs.
public enum RollReader {
    /// Reads `request.inputPath` and writes the piano roll.
    public static func draw(_ request: RollRequest) throws(SessionError) {
        let format = try PictureRunner.format(of: request.outputPath)
        let lower = request.inputPath.lowercased()
        guard lower.hasSuffix(".mid") || lower.hasSuffix(".midi") || lower.hasSuffix(".jsonl") else {
            throw .usage("\(request.inputPath): give a Standard MIDI File (.mid) or an event log (.jsonl)")
        }
        let roll: Roll
        let inputs: [OutputCheck.Named]
        if lower.hasSuffix(".jsonl") {
            roll = try fromEventLog(path: request.inputPath, preset: request.preset ?? "default")
            inputs = [("the event log", request.inputPath), ("the preset", try PresetFiles.locate(request.preset ?? "default"))]
        } else {
            if request.preset != nil { throw .usage("--preset applies to event logs only; a MIDI file carries its own key and tempo") }
            roll = try fromMIDI(path: request.inputPath)
            inputs = [("the MIDI file", request.inputPath)]
        }
        let file = try PictureRunner.open(request.outputPath, inputs: inputs)
        let bytes: [UInt8]
        do {
            bytes = try RollPainter.render(roll, width: request.size.width, height: request.size.height, format: format)
        } catch {
            file.abandon()
            throw SessionError(error, path: request.outputPath)
        }
        try PictureRunner.write(bytes, to: file)
    }

    /// Marks at every change of chord, from (time, degree) pairs in time order, named in `key`
    /// and from each of `changes` (live key changes, in time order) on in that key.
    static func chordMarks(_ degrees: [(time: Double, degree: Int)], key: Key, changes: [(time: Double, key: Key)] = []) -> [Roll.ChordMark] {
        var marks: [Roll.ChordMark] = []
        var current = 0
        var key = key
        var next = 0   // index into changes
        var keyChanged = false
        for (time, degree) in degrees {
            while next < changes.count && changes[next].time <= time {
                key = changes[next].key
                next += 1
                keyChanged = true
            }
            guard degree != current || keyChanged, let d = ScaleDegree(degree) else { continue }
            current = degree
            keyChanged = false
            marks.append(Roll.ChordMark(time: time, name: key.symbol(of: key.seventhChord(on: d)), hue: degree - 1))
        }
        return marks
    }

    /// The scale degree of each bass root (in time order) in the key in force at its time: `key`,
    /// then each of `changes` (in time order) from its time on. Roots outside the key are left out.
    static func degrees(of roots: [(time: Double, degree: Int)], key: Key, changes: [(time: Double, key: Key)]) -> [(time: Double, degree: Int)] {
        var inForce = key
        var next = 0
        return roots.compactMap { root in
            while next < changes.count && changes[next].time <= root.time {
                inForce = changes[next].key
                next += 1
            }
            return inForce.degree(of: PitchClass(root.degree)).map { (root.time, $0.number) }
        }
    }

    /// The legend's key: the first, then each live key change with its time ("C major; E♭ dorian
    /// from 5.0 s"), at most three changes named.
    static func keyLegend(_ key: Key, changes: [(time: Double, key: Key)]) -> String {
        var text = key.description
        for change in changes.prefix(3) { text += "; \(change.key) from \(formatDuration(change.time))" }
        if changes.count > 3 { text += "; \(changes.count - 3) more key changes" }
        return text
    }

    /// The lowest and highest pitch of each lane's notes (nil for a lane without notes), in one pass.
    static func pitchRanges(_ notes: [Roll.Note], lanes: Int) -> [(low: Int, high: Int)?] {
        var ranges = [(low: Int, high: Int)?](repeating: nil, count: lanes)
        for note in notes {
            let range = ranges[note.lane]
            ranges[note.lane] = (min(range?.low ?? note.pitch, note.pitch), max(range?.high ?? note.pitch, note.pitch))
        }
        return ranges
    }

    /// A lane spanning `range` (at least an octave; C4–C5 without notes).
    static func lane(_ name: String, _ range: (low: Int, high: Int)?) -> Roll.Lane {
        let low = range?.low ?? 60, high = range?.high ?? 72
        return Roll.Lane(name: name, pitches: low...max(high, low + 11))
    }

    /// The MIDI file at `path`: a FIFO, a directory or a device is refused (66) before anything
    /// is read, a file over `MIDIFileReader.maximumFileSize` or not MIDI is bad data (65).
    static func readMIDI(_ path: String) throws(SessionError) -> MIDIFileContents {
        let descriptor = try InputFile.open(path, what: "MIDI file")
        defer { close(descriptor) }
        do {
            return try MIDIFileReader.read(descriptor: descriptor, path: path)
        } catch {
            switch error {
            case .cannotRead: throw .noInput(error.description)
            default: throw .data(error.description)
            }
        }
    }

    /// A roll from a MIDI file: one lane per track with notes; the chords are the file's markers
    /// (Clumsy writes one per chord the session plays), or in a file without markers the Bass
    /// track's roots named in the key of the file's text event (`…; key C major`), if any.
    public static func fromMIDI(path: String) throws(SessionError) -> Roll {
        let contents = try readMIDI(path)
        let tempoMap = contents.tempoMap
        var key: Key?
        var keyChanges: [(time: Double, key: Key)] = []
        var beatsPerBar = 4
        var beatUnit = 4   // the time signature's denominator: a beat is a quarter (4) or an eighth (8)
        var tempo: UInt32?
        var lanes: [String] = []
        var notes: [Roll.Note] = []
        var bassRoots: [(time: Double, degree: Int)] = []
        var marked: [Roll.ChordMark] = []
        for (index, track) in contents.tracks.enumerated() {
            if StopSignal.process.isRaised { throw .io("\(Quote.text(path)): stopped by a signal") }
            var open: [Int: (start: Double, velocity: Int)] = [:]   // channel << 8 | note
            var trackNotes: [Roll.Note] = []
            let laneIndex = lanes.count
            for event in track {
                let time = tempoMap.seconds(atTick: event.tick)
                switch event.message {
                case .text(let text):
                    // The opening text names the key; a later `key …` text is a live key change.
                    if let named = keyNamed(in: text) {
                        if key == nil { key = named } else { keyChanges.append((time, named)) }
                    }
                case .marker(let name):
                    // Clumsy writes the symbol in ASCII ("Bbmaj7"); the roll shows it with music symbols.
                    marked.append(Roll.ChordMark(time: time, name: Quote.text(ChordSymbol.shown(name)), hue: hue(of: name, in: keyChanges.last?.key ?? key)))
                case .timeSignature(let numerator, let power, _, _):
                    beatsPerBar = max(1, Int(numerator))
                    beatUnit = 1 << Int(min(power, 6))
                case .tempo(let microseconds):
                    tempo = tempo ?? microseconds
                case .noteOn(let channel, let note, let velocity) where velocity > 0:
                    let id = Int(channel) << 8 | Int(note)
                    if let sounding = open[id] {
                        trackNotes.append(Roll.Note(lane: laneIndex, start: sounding.start, end: time, pitch: Int(note), velocity: sounding.velocity))
                    }
                    open[id] = (time, Int(velocity))
                case .noteOff(let channel, let note, _), .noteOn(let channel, let note, 0):
                    let id = Int(channel) << 8 | Int(note)
                    if let sounding = open.removeValue(forKey: id) {
                        trackNotes.append(Roll.Note(lane: laneIndex, start: sounding.start, end: time, pitch: Int(note), velocity: sounding.velocity))
                    }
                default:
                    break
                }
            }
            let end = track.last.map { tempoMap.seconds(atTick: $0.tick) } ?? 0
            for (id, sounding) in open {
                trackNotes.append(Roll.Note(lane: laneIndex, start: sounding.start, end: end, pitch: id & 0xFF, velocity: sounding.velocity))
            }
            guard !trackNotes.isEmpty else { continue }
            let name = contents.trackName(at: index) ?? "Track \(index + 1)"
            lanes.append(name)
            trackNotes.sort { $0.start < $1.start }
            if name == "Bass" { bassRoots = trackNotes.map { ($0.start, $0.pitch) } }
            notes += trackNotes
        }
        guard !notes.isEmpty else { throw .data("\(path): the MIDI file has no notes to draw") }
        notes.sort { $0.start < $1.start }
        var chords = marked.sorted { $0.time < $1.time }
        if chords.isEmpty, let key {
            keyChanges.sort { $0.time < $1.time }
            chords = chordMarks(degrees(of: bassRoots, key: key, changes: keyChanges), key: key, changes: keyChanges)
        }
        let secondsPerQuarter = Double(tempo ?? MIDITempoMap.defaultMicrosecondsPerQuarter) / 1_000_000
        let secondsPerBeat = secondsPerQuarter * 4 / Double(beatUnit)
        let duration = notes.map(\.end).max() ?? 1
        var legend = ["\(formatTempo(60 / secondsPerQuarter)) bpm, \(beatsPerBar)/\(beatUnit)"]
        if let key { legend.append(keyLegend(key, changes: keyChanges)) }
        legend.append("\(notes.count) notes, \(formatDuration(duration))")
        let name = Quote.text(PathName.name(of: path))
        let ranges = pitchRanges(notes, lanes: lanes.count)
        return Roll(title: name, legend: legend, lanes: lanes.enumerated().map { lane($0.element, ranges[$0.offset]) },
                    notes: notes, chords: chords, secondsPerBeat: secondsPerBeat, beatsPerBar: beatsPerBar, duration: duration)
    }

    /// Times an event log may hold, seconds: far beyond any session (a week at most), and
    /// small enough that every coordinate computed from them is exact and finite.
    static let timeRange: ClosedRange<Double> = 0...1e9

    /// A roll from an event log: one lane per voice of the voices table of `preset` (a bundled
    /// preset's name or a preset file's path) (each note's
    /// `voice`, or for logs without it its `kind`), each note from when it sounds (`t`). The log
    /// has hits, not note lengths, so the voices' note lengths are used (cut short where the
    /// same pitch is struck again); the key, tempo and meter come from `preset` too, and the
    /// log's live key changes (`control` lines) rename the chords from their time on.
    public static func fromEventLog(path: String, preset: String) throws(SessionError) -> Roll {
        try fromEventLog(path: path, plan: try SessionPlan.resolve(preset: preset, duration: 1))
    }

    /// A roll from an event log with the voices, key and clock of `plan` (see `fromEventLog(path:preset:)`).
    /// The chords are the log's `chord` lines (a log written before them: each bass root's
    /// degree, its chord named as the session would, `ChordNames`).
    public static func fromEventLog(path: String, plan: SessionPlan) throws(SessionError) -> Roll {
        let voices = plan.voices.voices
        let lines = try EventLogLines(path: path)
        var notes: [Roll.Note] = []
        var chords: [Roll.ChordMark] = []
        var roots: [(time: Double, degree: Int)] = []
        var keyChanges: [(time: Double, key: Key)] = []
        let sources: [String: Voice.Source] = ["bass": .bassBall, "key": .pianoBalls, "drum": .percussion, "second": .derived, "melody": .melody]
        while let line = try lines.next() {
            if line.isEmpty { continue }
            let record = try EventLogRecord(parsing: Array(line), path: path, line: lines.number)
            let place = "\(Quote.text(path)): line \(lines.number)"
            func bad(_ field: String, _ accepted: String) -> SessionError { .data("\(place): \"\(field)\" must be \(accepted)") }
            if record.hasTime, !timeRange.contains(record.t) { throw bad("t", "a time in seconds, \(Limits.text(timeRange))") }
            if let degree = record.degree, !(1...7).contains(degree) { throw bad("degree", "a scale degree, a whole number 1…7") }
            switch record.kind {
            case "control":
                if record.control == "key", case .success(.key(let key)) = Control.key(tonic: record.tonic ?? "", mode: record.mode ?? "") {
                    keyChanges.append((record.t, key))
                }
                continue
            case "chord":
                guard let degree = record.degree, let name = record.name else { throw bad("degree", "given with a \"name\" on a chord line") }
                chords.append(Roll.ChordMark(time: record.t, name: Quote.text(name), hue: degree - 1))
                continue
            default:
                break
            }
            guard let source = sources[record.kind] else { continue }
            let lane = try voiceRow(named: record.voice, source: source, kind: record.kind, plan: plan, at: place)
            guard record.hasTime else { throw bad("t", "a time in seconds, \(Limits.text(timeRange)), in every \(record.kind) event") }
            guard let note = record.note, (0...127).contains(note) else { throw bad("note", "a MIDI note 0…127") }
            guard let velocity = record.velocity, (0...127).contains(velocity) else { throw bad("velocity", "a MIDI velocity 0…127") }
            notes.append(Roll.Note(lane: lane, start: record.t, end: record.t + voices[lane].noteLength, pitch: note, velocity: velocity))
            if source == .bassBall, record.leading != true, let degree = record.degree { roots.append((record.t, degree)) }
        }
        guard !notes.isEmpty else { throw .data("\(Quote.text(path)): the event log has no notes to draw") }
        notes.sort { $0.start < $1.start }
        keyChanges.sort { $0.time < $1.time }
        if chords.isEmpty { chords = chordMarks(roots.sorted { $0.time < $1.time }, plan: plan, changes: keyChanges) }
        // A pitch struck again ends the previous note (as the performer does).
        var lastIndex: [Int: Int] = [:]
        for i in notes.indices {
            let id = notes[i].lane << 8 | notes[i].pitch
            if let previous = lastIndex[id], notes[previous].end > notes[i].start { notes[previous].end = notes[i].start }
            lastIndex[id] = i
        }
        let duration = notes.map(\.end).max() ?? 1
        let clock = plan.clock
        let legend = ["\(formatTempo(clock.tempo)) bpm, \(clock.meter.description)", keyLegend(plan.key, changes: keyChanges),
                      "\(notes.count) notes, \(formatDuration(duration))", "note lengths from preset \(Quote.text(plan.name))"]
        let name = Quote.text(PathName.name(of: path))
        // Lanes for the voices that played (table order).
        let used = Set(notes.map(\.lane))
        let rows = voices.indices.filter(used.contains)
        let renumber = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($0.element, $0.offset) })
        for i in notes.indices { notes[i].lane = renumber[notes[i].lane]! }
        let ranges = pitchRanges(notes, lanes: rows.count)
        return Roll(title: name, legend: legend, lanes: rows.map { lane(voices[$0].name, ranges[renumber[$0]!]) },
                    notes: notes, chords: chords, secondsPerBeat: clock.beatSeconds,
                    beatsPerBar: clock.meter.beats, duration: duration)
    }

    /// The chords of a log written before logs had chord lines: a mark at each bass root whose
    /// degree (or key) changes, named as the session names that degree's chord in the key in force.
    static func chordMarks(_ roots: [(time: Double, degree: Int)], plan: SessionPlan, changes: [(time: Double, key: Key)]) -> [Roll.ChordMark] {
        var names = ChordNames.of(plan.performer.chords, in: plan.key).symbols
        var marks: [Roll.ChordMark] = []
        var current = 0, next = 0
        for (time, degree) in roots {
            var keyChanged = false
            while next < changes.count && changes[next].time <= time {
                if case .success(let change) = plan.keyChange(to: changes[next].key) {
                    names = ChordNames.of(change.performer.chords, in: changes[next].key).symbols
                }
                next += 1
                keyChanged = true
            }
            guard degree != current || keyChanged else { continue }
            current = degree
            marks.append(Roll.ChordMark(time: time, name: names[degree - 1], hue: degree - 1))
        }
        return marks
    }

    /// The row of `plan`'s voices table of an event: by its `voice` name, or for logs without
    /// one by its kind's `source`. `place` ("file: line n") starts the error.
    static func voiceRow(named name: String?, source: Voice.Source, kind: String, plan: SessionPlan, at place: String) throws(SessionError) -> Int {
        let voices = plan.voices.voices
        if let name {
            guard let row = voices.firstIndex(where: { $0.logName == name }) else {
                throw .data("\(place): voice \(Quote.text(name)) is not a voice of preset \(Quote.text(plan.name)) "
                    + "(\(voices.map(\.logName).joined(separator: ", "))); give --preset the preset that wrote the log")
            }
            return row
        }
        guard let row = voices.firstIndex(where: { $0.source == source }) else {
            throw .data("\(place): preset \(Quote.text(plan.name)) has no voice for \(kind) events; give --preset the preset that wrote the log")
        }
        return row
    }

    /// The colour of a chord marker: the degree of its root ("F♯" of "F♯m7") in `key`, none
    /// (-1) for a root outside the key or a name that does not start with a note.
    static func hue(of name: String, in key: Key?) -> Int {
        let root = name.prefix(1) + name.dropFirst().prefix { "♯♭#b𝄪𝄫".contains($0) }
        guard let key, let pitchClass = PitchClass(name: String(root)), let degree = key.degree(of: pitchClass) else { return -1 }
        return degree.number - 1
    }

    /// The key a MIDI file's text names ("…; key C major" or "key Eb harmonic minor; …"), if any.
    static func keyNamed(in text: String) -> Key? {
        for part in text.split(separator: ";") {
            let trimmed = part.drop(while: { $0 == " " })
            guard trimmed.hasPrefix("key "), let key = Key(parsing: String(trimmed.dropFirst(4))) else { continue }
            return key
        }
        return nil
    }

    static func formatTempo(_ bpm: Double) -> String { Format.plain((bpm * 100).rounded() / 100) }

    static func formatDuration(_ seconds: Double) -> String { Format.fixed(seconds, decimals: 1) + " s" }
}
