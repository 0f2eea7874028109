import MIDIFile
import Pictures
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
        if lower.hasSuffix(".jsonl") {
            let preset = try PresetLibrary.load(request.preset ?? "default")
            roll = try fromEventLog(path: request.inputPath, preset: preset)
        } else {
            if request.preset != nil { throw .usage("--preset applies to event logs only; a MIDI file carries its own key and tempo") }
            roll = try fromMIDI(path: request.inputPath)
        }
        let file = try PictureRunner.open(request.outputPath)
        let bytes: [UInt8]
        do {
            bytes = try RollPainter.render(roll, width: request.size.width, height: request.size.height, format: format)
        } catch {
            file.abandon()
            throw SessionError(error, path: request.outputPath)
        }
        try PictureRunner.write(bytes, to: file)
    }

    /// Marks at every change of chord, from (time, degree) pairs in time order.
    static func chordMarks(_ degrees: [(time: Double, degree: Int)], key: Key) -> [Roll.ChordMark] {
        var marks: [Roll.ChordMark] = []
        var current = 0
        for (time, degree) in degrees where degree != current {
            guard let d = ScaleDegree(degree) else { continue }
            current = degree
            marks.append(Roll.ChordMark(time: time, name: key.seventhChord(on: d).description, hue: degree - 1))
        }
        return marks
    }

    static func lane(_ name: String, _ notes: [Roll.Note], index: Int) -> Roll.Lane {
        let pitches = notes.filter { $0.lane == index }.map(\.pitch)
        let low = pitches.min() ?? 60, high = pitches.max() ?? 72
        return Roll.Lane(name: name, pitches: low...max(high, low + 11))
    }

    /// A roll from a MIDI file: one lane per track with notes, chords from the Bass track's
    /// roots in the key named in the file's text event (`…; key C major`), if any.
    static func fromMIDI(path: String) throws(SessionError) -> Roll {
        let contents: MIDIFileContents
        do {
            contents = try MIDIFileReader.read(path: path)
        } catch {
            switch error {
            case .cannotRead: throw .noInput(error.description)
            default: throw .data(error.description)
            }
        }
        var key: Key?
        var beatsPerBar = 4
        var tempo: UInt32?
        var lanes: [String] = []
        var notes: [Roll.Note] = []
        var bassRoots: [(time: Double, degree: Int)] = []
        for (index, track) in contents.tracks.enumerated() {
            var open: [Int: (start: Double, velocity: Int)] = [:]   // channel << 8 | note
            var trackNotes: [Roll.Note] = []
            let laneIndex = lanes.count
            for event in track {
                let time = contents.seconds(atTick: event.tick)
                switch event.message {
                case .text(let text):
                    if let range = text.range(of: "key ") {
                        key = key ?? Key(parsing: String(text[range.upperBound...]).split(separator: ";").first.map(String.init) ?? "")
                    }
                case .timeSignature(let numerator, _, _, _):
                    beatsPerBar = max(1, Int(numerator))
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
            let end = track.last.map { contents.seconds(atTick: $0.tick) } ?? 0
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
        var chords: [Roll.ChordMark] = []
        if let key {
            chords = chordMarks(bassRoots.compactMap { root in
                key.degree(of: PitchClass(root.degree)).map { (root.time, $0.number) }
            }, key: key)
        }
        let secondsPerBeat = Double(tempo ?? MIDITempoMap.defaultMicrosecondsPerQuarter) / 1_000_000
        let duration = notes.map(\.end).max() ?? 1
        var legend = ["\(formatTempo(60 / secondsPerBeat)) bpm, \(beatsPerBar) beats a bar"]
        if let key { legend.append(key.description) }
        legend.append("\(notes.count) notes, \(formatDuration(duration))")
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return Roll(title: name, legend: legend, lanes: lanes.enumerated().map { lane($0.element, notes, index: $0.offset) },
                    notes: notes, chords: chords, secondsPerBeat: secondsPerBeat, beatsPerBar: beatsPerBar, duration: duration)
    }

    /// A roll from an event log; the log has hits, not note lengths, so `preset` gives the
    /// note lengths (cut short where the same pitch is struck again), the key and the tempo.
    static func fromEventLog(path: String, preset: Preset) throws(SessionError) -> Roll {
        let bytes = try readWholeFile(path)
        var notes: [Roll.Note] = []
        var degrees: [(time: Double, degree: Int)] = []
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty { continue }
            let value: JSONValue
            do {
                value = try JSONParser.parse(Array(line))
            } catch {
                throw .data("\(path): line \(lineNumber) is not JSON: \(error.reason)")
            }
            guard case .object(let members) = value else { throw .data("\(path): line \(lineNumber) is not a JSON object") }
            func number(_ name: String) -> Double? {
                if case .number(let x)? = members.first(where: { $0.key == name })?.value { return x }
                return nil
            }
            var kind = ""
            if case .string(let k)? = members.first(where: { $0.key == "kind" })?.value { kind = k }
            guard kind == "bass" || kind == "key" else { continue }
            guard let t = number("t"), t.isFinite, t >= 0, let note = number("note"), (0...127).contains(note),
                  let velocity = number("velocity"), (0...127).contains(velocity) else {
                throw .data("\(path): line \(lineNumber): a \(kind) event needs t ≥ 0, note 0…127 and velocity 0…127")
            }
            let isBass = kind == "bass"
            let length = isBass ? preset.bass.noteLength : preset.keys.noteLength
            notes.append(Roll.Note(lane: isBass ? 0 : 1, start: t, end: t + length, pitch: Int(note), velocity: Int(velocity)))
            if let degree = number("degree") { degrees.append((t, Int(degree))) }
        }
        guard !notes.isEmpty else { throw .data("\(path): the event log has no bass or key events to draw") }
        notes.sort { $0.start < $1.start }
        // A pitch struck again ends the previous note (as the performer does).
        var lastIndex: [Int: Int] = [:]
        for i in notes.indices {
            let id = notes[i].lane << 8 | notes[i].pitch
            if let previous = lastIndex[id], notes[previous].end > notes[i].start { notes[previous].end = notes[i].start }
            lastIndex[id] = i
        }
        let duration = notes.map(\.end).max() ?? 1
        let legend = ["\(formatTempo(preset.tempo)) bpm, 4 beats a bar", preset.key.description,
                      "\(notes.count) notes, \(formatDuration(duration))", "note lengths from preset \(preset.name)"]
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return Roll(title: name, legend: legend, lanes: [lane("Bass", notes, index: 0), lane("Keys", notes, index: 1)],
                    notes: notes, chords: chordMarks(degrees, key: preset.key), secondsPerBeat: 60 / preset.tempo,
                    beatsPerBar: 4, duration: duration)
    }

    static func formatTempo(_ bpm: Double) -> String { Format.plain((bpm * 100).rounded() / 100) }

    static func formatDuration(_ seconds: Double) -> String { Format.fixed(seconds, decimals: 1) + " s" }

    static func readWholeFile(_ path: String) throws(SessionError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .noInput("\(path): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { throw .noInput("\(path): is a directory") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .noInput("\(path): cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}
