// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// Draws the frames of a session's video: the world with its balls, bouncers and keys that
/// flash when struck, the active chord in the panel, a piano roll scrolling at the bottom.
///
/// The static world is drawn once; each frame copies it and draws what moves on top, into
/// one reused image canvas (ARGB32).
public final class VideoFrameRenderer {
    /// Frame canvas (read its pixels after `render`).
    public let canvas: Canvas
    private let background: Canvas
    /// The world's painter (also tells tests where each key is in pixels).
    public let painter: WorldPainter
    /// Where things go.
    public let layout: Composition
    /// Ball positions, metres (index 0 the bass ball; not finite: out of the world, not drawn);
    /// the caller updates them in place.
    public var positions: [Vector]
    /// The piano roll so far; the caller appends notes and chord marks as they happen.
    public var roll: Roll
    /// Time of each bouncer's last hit, seconds (index as in the drawing).
    public var bouncerHits: [Double]
    /// Time of each key's last hit, seconds.
    public var keyHits: [Double]
    /// Note name each key plays under the active chord (drawn above the key), if known.
    public var keyNotes: [String]
    /// The active chord's symbol and its degree numeral.
    public var chord = "", numeral = ""
    /// Colour index of the active chord (degree − 1), or -1.
    public var chordHue = -1
    /// Seconds of piano roll visible in the strip.
    public var rollSpan = 10.0
    /// Seconds a flash takes to fade to 1/e.
    public static let flashDecay = 0.18
    private var firstVisibleNote = 0
    private var drawnUpTo: [Double] = []

    /// Prepares a `width` × `height` renderer for `drawing`.
    public init(drawing: Drawing, width: Int, height: Int, roll: Roll) throws(PictureError) {
        layout = Composition(width: width, height: height, withRoll: true)
        painter = WorldPainter(drawing: drawing, frame: layout.world)
        canvas = try Canvas(width: width, height: height)
        background = try Canvas(width: width, height: height)
        positions = drawing.balls.map(\.start)
        self.roll = roll
        bouncerHits = Array(repeating: -.infinity, count: drawing.bouncers.count)
        keyHits = Array(repeating: -.infinity, count: drawing.keys.count)
        keyNotes = Array(repeating: "", count: drawing.keys.count)
        let t = layout.textSize
        background.clear(Palette.background)
        painter.drawAreas(on: background, textSize: t)
        for index in drawing.bouncers.indices { painter.drawBouncer(index, on: background, flash: 0, textSize: t) }
        var legendPanel = layout.panel
        legendPanel.minY += 7.5 * t   // room for the active chord above the legend
        painter.drawLegend(on: background, in: legendPanel, textSize: 0.9 * t, withVelocityRamp: false)
        try background.check()
    }

    /// Draws the frame for simulated time `time` (seconds) into `canvas`.
    public func render(at time: Double) throws(PictureError) {
        let t = layout.textSize
        canvas.paint(background)
        for index in bouncerHits.indices {
            let flash = Self.flash(since: bouncerHits[index], now: time)
            if flash > 0.01 { painter.drawBouncer(index, on: canvas, flash: flash, textSize: t) }
        }
        for index in keyHits.indices {
            painter.drawKey(index, on: canvas, flash: Self.flash(since: keyHits[index], now: time),
                            note: keyNotes[index].isEmpty ? nil : keyNotes[index], textSize: t)
        }
        positions.withUnsafeBufferPointer { painter.drawBalls($0, on: canvas) }

        // The active chord, large, in the panel's corner.
        let panel = layout.panel
        if !chord.isEmpty {
            canvas.text(chord, at: Vector(panel.minX, panel.minY + 3.2 * t), size: 3.4 * t,
                        chordHue >= 0 ? Palette.degree(chordHue) : Palette.text, bold: true)
            canvas.text(numeral, at: Vector(panel.minX, panel.minY + 5.2 * t), size: 1.4 * t, Palette.dimText)
        }
        canvas.text(Self.clock(time), at: Vector(panel.minX, panel.minY + 6.8 * t), size: 1.1 * t, Palette.dimText)

        if let strip = layout.roll {
            let end = time + 0.1 * rollSpan
            let start = end - rollSpan
            while firstVisibleNote < roll.notes.count && roll.notes[firstVisibleNote].end < start - rollSpan {
                firstVisibleNote += 1
            }
            RollPainter.draw(roll, on: canvas, in: strip, from: start, to: end, textSize: 0.9 * t,
                             firstNote: firstVisibleNote, playhead: time, drawnUpTo: &drawnUpTo)
        }
        try canvas.check()
    }

    /// Brightness 0…1 of a flash that started at `hit`, seen at `now`.
    /// Times within a nanosecond count as equal: step n's time n·dt and frame m's time m/fps
    /// may name the same instant with different rounding.
    public static func flash(since hit: Double, now: Double) -> Double {
        guard hit.isFinite, now >= hit - 1e-9 else { return 0 }
        return exp(-max(0, now - hit) / flashDecay)
    }

    static func clock(_ time: Double) -> String {
        let tenths = Int((max(0, time) * 10).rounded(.down))
        let minutes = tenths / 600, seconds = (tenths / 10) % 60, tenth = tenths % 10
        return "\(minutes):\(seconds < 10 ? "0" : "")\(seconds).\(tenth)"
    }
}
