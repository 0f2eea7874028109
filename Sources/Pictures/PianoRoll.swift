// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry

/// A piano roll as plain values: lanes (one per voice), notes, chord names, the beat grid.
public struct Roll: Sendable {
    /// One voice's lane.
    public struct Lane: Sendable {
        /// Name shown at the lane's left (the MIDI track name).
        public var name: String
        /// Lowest and highest MIDI pitch the lane shows.
        public var pitches: ClosedRange<Int>
        /// Creates a lane.
        public init(name: String, pitches: ClosedRange<Int>) {
            self.name = name
            self.pitches = pitches
        }
    }

    /// A note drawn as a bar from `start` to `end` (seconds); velocity 1…127 sets its opacity.
    public struct Note: Sendable {
        /// Lane index.
        public var lane: Int
        /// Start, seconds.
        public var start: Double
        /// End, seconds (`.infinity` while it still sounds).
        public var end: Double
        /// MIDI pitch.
        public var pitch: Int
        /// MIDI velocity 1…127.
        public var velocity: Int
        /// Creates a note.
        public init(lane: Int, start: Double, end: Double, pitch: Int, velocity: Int) {
            self.lane = lane
            self.start = start
            self.end = end
            self.pitch = pitch
            self.velocity = velocity
        }
    }

    /// The active chord from `time` on.
    public struct ChordMark: Sendable {
        /// Seconds.
        public var time: Double
        /// Chord symbol.
        public var name: String
        /// Colour index (the degree − 1), or -1 for none.
        public var hue: Int
        /// Creates a mark.
        public init(time: Double, name: String, hue: Int = -1) {
            self.time = time
            self.name = name
            self.hue = hue
        }
    }

    /// Heading.
    public var title: String
    /// Lines under the heading (tempo, meter, key).
    public var legend: [String]
    /// Lanes, top to bottom.
    public var lanes: [Lane]
    /// Notes sorted by start.
    public var notes: [Note]
    /// Chord changes sorted by time.
    public var chords: [ChordMark]
    /// Seconds per beat (60 / tempo).
    public var secondsPerBeat: Double
    /// Beats per bar.
    public var beatsPerBar: Int
    /// Seconds shown.
    public var duration: Double

    /// Creates a roll.
    public init(title: String, legend: [String], lanes: [Lane], notes: [Note], chords: [ChordMark],
                secondsPerBeat: Double, beatsPerBar: Int, duration: Double) {
        self.title = title
        self.legend = legend
        self.lanes = lanes
        self.notes = notes
        self.chords = chords
        self.secondsPerBeat = secondsPerBeat
        self.beatsPerBar = beatsPerBar
        self.duration = duration
    }
}

/// Draws piano rolls: a whole piece as a picture, or a scrolling strip under a video.
public enum RollPainter {
    /// The whole `roll` on a `width` × `height` canvas; returns the file's bytes.
    public static func render(_ roll: Roll, width: Int, height: Int, format: PictureFormat) throws(PictureError) -> [UInt8] {
        let canvas = try Canvas(width: width, height: height, format: format)
        let w = Double(width), h = Double(height)
        let t = Composition.textSize(forShortSide: min(w, h))
        let margin = (0.025 * min(w, h)).rounded()
        canvas.clear(Palette.background)
        var y = margin + 1.6 * t
        canvas.text(roll.title, at: Vector(margin, y), size: 1.6 * t, Palette.text, bold: true)
        var x = margin + canvas.textWidth(roll.title, size: 1.6 * t, bold: true) + 1.5 * t
        for line in roll.legend {
            canvas.text(line, at: Vector(x, y), size: t, Palette.dimText)
            x += canvas.textWidth(line, size: t) + 1.5 * t
        }
        y += 0.9 * t
        let box = Rect(minX: margin, minY: y, maxX: w - margin, maxY: h - margin - 1.6 * t)
        var drawnUpTo: [Double] = []
        draw(roll, on: canvas, in: box, from: 0, to: max(roll.duration, 1e-3), textSize: t, firstNote: 0, playhead: nil,
             drawnUpTo: &drawnUpTo)
        // Bar numbers under the roll.
        let barSeconds = roll.secondsPerBeat * Double(roll.beatsPerBar)
        if barSeconds > 0 {
            // In floating point: a roll of any length labels at most a bar per 3 text sizes of
            // width, and no bar count can overflow (an event log may say 1e21 s).
            let pixelsPerBar = box.width / max(roll.duration, 1e-3) * barSeconds
            let every = max(1, (3 * t / pixelsPerBar).rounded(.up))
            var bar = 0.0
            while bar * barSeconds <= roll.duration && bar < 1e15 {
                let bx = box.minX + bar * pixelsPerBar
                canvas.text("\(Int(bar) + 1)", at: Vector(bx + 2, box.maxY + 1.2 * t), size: 0.8 * t, Palette.dimText)
                bar += every
            }
        }
        return try canvas.encoded()
    }

    /// Draws `roll` between `start` and `end` seconds into `box`: a chord strip on top, then one
    /// lane per voice with bar and beat lines. Notes before `firstNote` are skipped unseen.
    /// `drawnUpTo` is scratch space (reused between frames): per lane row, the right edge of
    /// the bars drawn so far, so that a dense roll (the swarm's thousand notes a second)
    /// costs at most a bar per pixel column and row rather than one per note.
    static func draw(_ roll: Roll, on canvas: Canvas, in box: Rect, from start: Double, to end: Double,
                     textSize t: Double, firstNote: Int, playhead: Double?, drawnUpTo: inout [Double]) {
        guard end - start > 0, box.width > 4, box.height > 4 else { return }
        let view = RollView(roll: roll, box: box, start: start, end: end, textSize: t)
        canvas.fill(box, Palette.panel)
        canvas.clip(box)
        view.drawBeatLines(on: canvas)
        view.drawLaneNames(on: canvas)
        view.drawNotes(on: canvas, firstNote: firstNote, playhead: playhead, drawnUpTo: &drawnUpTo)
        view.drawChords(on: canvas, playhead: playhead)
        if let playhead {
            let x = view.xOf(playhead)
            canvas.line(Vector(x, box.minY), Vector(x, box.maxY), Palette.text.with(alpha: 0.8), width: 1.5)
        }
        canvas.unclip()
        canvas.stroke(box, Palette.barLine, width: 1)
    }
}

/// One drawing of a roll: the time span, the box and its parts (the chord strip on top, the
/// lanes below), and the steps that paint each.
private struct RollView {
    let roll: Roll
    let box: Rect
    let start: Double
    let end: Double
    /// Text size, pixels.
    let t: Double
    let chordHeight: Double
    let chordBox: Rect
    let lanesBox: Rect
    let laneHeight: Double

    init(roll: Roll, box: Rect, start: Double, end: Double, textSize t: Double) {
        self.roll = roll
        self.box = box
        self.start = start
        self.end = end
        self.t = t
        chordHeight = min(1.6 * t, box.height / 4)
        chordBox = Rect(minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.minY + chordHeight)
        lanesBox = Rect(minX: box.minX, minY: chordBox.maxY, maxX: box.maxX, maxY: box.maxY)
        laneHeight = lanesBox.height / Double(max(1, roll.lanes.count))
    }

    func xOf(_ time: Double) -> Double { box.minX + (time - start) / (end - start) * box.width }

    /// Beat and bar lines, when they are at least three pixels apart.
    func drawBeatLines(on canvas: Canvas) {
        let span = end - start
        guard roll.secondsPerBeat > 0 && span / roll.secondsPerBeat < Double(box.width) / 3 && end / roll.secondsPerBeat < 1e15 else { return }
        var beat = max(0, Int((start / roll.secondsPerBeat).rounded(.down)))
        while Double(beat) * roll.secondsPerBeat <= end {
            let x = xOf(Double(beat) * roll.secondsPerBeat)
            let isBar = roll.beatsPerBar > 0 && beat % roll.beatsPerBar == 0
            canvas.line(Vector(x, lanesBox.minY), Vector(x, lanesBox.maxY), isBar ? Palette.barLine : Palette.grid, width: isBar ? 1.2 : 0.8)
            beat += 1
        }
    }

    /// A line between lanes and each lane's name.
    func drawLaneNames(on canvas: Canvas) {
        for (index, lane) in roll.lanes.enumerated() {
            let top = lanesBox.minY + Double(index) * laneHeight
            if index > 0 { canvas.line(Vector(box.minX, top), Vector(box.maxX, top), Palette.barLine, width: 1) }
            canvas.text(lane.name, at: Vector(box.minX + 0.4 * t, top + 1.1 * min(t, laneHeight / 2)), size: 0.8 * min(t, laneHeight / 2),
                        Palette.lane(index).with(alpha: 0.9))
        }
    }

    /// The notes as bars (velocity as opacity), skipping a bar its row already covers.
    func drawNotes(on canvas: Canvas, firstNote: Int, playhead: Double?, drawnUpTo: inout [Double]) {
        var rowStart: [Int] = []
        rowStart.reserveCapacity(roll.lanes.count)
        var rows = 0
        for lane in roll.lanes { rowStart.append(rows); rows += lane.pitches.count }
        if drawnUpTo.count < rows { drawnUpTo = Array(repeating: 0, count: rows) }
        for i in 0..<rows { drawnUpTo[i] = -Double.infinity }
        var index = firstNote
        while index < roll.notes.count {
            let note = roll.notes[index]
            index += 1
            if note.start > end { break }
            if note.end < start || note.lane >= roll.lanes.count || note.lane < 0 { continue }
            let lane = roll.lanes[note.lane]
            let rows = Double(lane.pitches.count)
            let laneTop = lanesBox.minY + Double(note.lane) * laneHeight
            let inner = laneHeight - 4
            let row = Double(min(max(note.pitch, lane.pitches.lowerBound), lane.pitches.upperBound) - lane.pitches.lowerBound)
            let barHeight = max(3, min(2 * inner / rows, 0.8 * t))
            let y = laneTop + 2 + (rows - 1 - row) / max(rows - 1, 1) * (inner - barHeight)
            let x0 = max(xOf(note.start), box.minX - 2)
            let x1 = min(xOf(min(note.end, playhead ?? note.end)), box.maxX + 2)
            let right = max(x1, x0 + 1.5)
            let slot = rowStart[note.lane] + Int(row)
            if right <= drawnUpTo[slot] + 0.25 { continue }   // already covered by an earlier bar in this row
            let left = max(x0, drawnUpTo[slot])
            drawnUpTo[slot] = right
            let alpha = 0.25 + 0.75 * Double(max(1, min(127, note.velocity))) / 127
            canvas.fill(Rect(minX: left, minY: y, maxX: right, maxY: y + barHeight), Palette.lane(note.lane).with(alpha: alpha))
        }
    }

    /// Chord names along the top, each from its change to the next.
    func drawChords(on canvas: Canvas, playhead: Double?) {
        canvas.fill(chordBox, Palette.background.with(alpha: 0.6))
        var lastLabelEnd = -Double.infinity
        let chordSize = 0.75 * chordHeight
        for (i, chord) in roll.chords.enumerated() {
            let next = i + 1 < roll.chords.count ? roll.chords[i + 1].time : (playhead ?? end)
            if next < start { continue }
            if chord.time > end { break }
            let x0 = xOf(chord.time), x1 = xOf(next)
            if chord.hue >= 0 {
                canvas.fill(Rect(minX: x0, minY: chordBox.maxY - 3, maxX: x1, maxY: chordBox.maxY), Palette.degree(chord.hue))
            }
            canvas.line(Vector(x0, chordBox.minY), Vector(x0, chordBox.maxY), Palette.barLine, width: 1)
            let labelX = max(x0 + 3, box.minX + 3)
            let width = canvas.textWidth(chord.name, size: chordSize)
            // A label needs room in its chord's visible span (the last chord may run past it).
            let isLast = i + 1 == roll.chords.count || roll.chords[i + 1].time > end
            if labelX > lastLabelEnd + 4 && (labelX + width <= x1 || isLast) {
                canvas.text(chord.name, at: Vector(labelX, chordBox.minY + 0.78 * chordHeight), size: chordSize, Palette.text)
                lastLabelEnd = labelX + width
            }
        }
    }
}
