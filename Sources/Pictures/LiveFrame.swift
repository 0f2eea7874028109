// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CCairo
import Geometry

/// Frames of the world as it plays, for the LV2 plugin's window: what `clumsy draw` draws (the
/// same composition, painter and legend, so a frame of the balls at their starts is `clumsy
/// draw`'s picture pixel for pixel), with the balls where they are now, the bouncers and keys
/// lit when struck, and the chord and bar playing at the foot of the panel.
///
/// The still parts are drawn once per size; each frame copies them and draws what moves.
public final class LiveFrameRenderer {
    /// The frame (its pixels after `render`).
    public let canvas: Canvas
    private let background: Canvas
    /// The world's painter.
    public let painter: WorldPainter
    /// Where things go.
    public let layout: Composition
    /// Ball positions, metres (index 0 the bass ball; not finite: out of the world, not drawn).
    public var positions: [Vector]
    /// How lit each bouncer and key is, 0…1 (indices as in the drawing).
    public var bouncerFlash: [Double]
    public var keyFlash: [Double]
    /// The chord playing (its symbol and numeral; empty: none yet), its colour index (degree − 1, or −1).
    public var chord = "", numeral = ""
    public var chordHue = -1
    /// Where the host's transport is ("bar 3 · beat 2"; empty: not known).
    public var bar = ""

    /// Prepares a `width` × `height` renderer for `drawing`, its balls at their starts.
    public init(drawing: Drawing, width: Int, height: Int) throws(PictureError) {
        layout = Composition(width: width, height: height, withRoll: false)
        painter = WorldPainter(drawing: drawing, frame: layout.world)
        canvas = try Canvas(width: width, height: height)
        background = try Canvas(width: width, height: height)
        positions = drawing.balls.map(\.start)
        bouncerFlash = Array(repeating: 0, count: drawing.bouncers.count)
        keyFlash = Array(repeating: 0, count: drawing.keys.count)
        let t = layout.textSize
        background.clear(Palette.background)
        painter.drawAreas(on: background, textSize: t)
        for index in drawing.bouncers.indices { painter.drawBouncer(index, on: background, flash: 0, textSize: t) }
        painter.drawLegend(on: background, in: layout.panel, textSize: t, withVelocityRamp: false)
        try background.check()
    }

    /// Draws the frame into `canvas`.
    public func render() throws(PictureError) {
        let t = layout.textSize
        canvas.paint(background)
        for index in bouncerFlash.indices where bouncerFlash[index] > 0.01 {
            painter.drawBouncer(index, on: canvas, flash: min(bouncerFlash[index], 1), textSize: t)
        }
        for index in keyFlash.indices {
            painter.drawKey(index, on: canvas, flash: min(max(keyFlash[index], 0), 1), note: nil, textSize: t)
        }
        positions.withUnsafeBufferPointer { painter.drawBalls($0, on: canvas) }
        // The chord and the bar at the panel's foot (right-aligned under a wide panel above a
        // portrait world), clear of the legend that flows from its top.
        let panel = layout.panel
        let wide = panel.width > panel.height
        let x = wide ? panel.maxX : panel.minX
        let alignment: Canvas.Alignment = wide ? .right : .left
        if !bar.isEmpty {
            canvas.text(bar, at: Vector(x, panel.maxY), size: 1.1 * t, Palette.dimText, alignment: alignment)
        }
        if !chord.isEmpty {
            canvas.text(numeral, at: Vector(x, panel.maxY - 1.8 * t), size: 1.4 * t, Palette.dimText, alignment: alignment)
            canvas.text(chord, at: Vector(x, panel.maxY - 3.6 * t), size: 3.4 * t,
                        chordHue >= 0 ? Palette.degree(chordHue) : Palette.text, alignment: alignment, bold: true)
        }
        try canvas.check()
    }

    /// The world point (metres) under a pixel of the canvas.
    public func worldPoint(atPixel pixel: Vector) -> Vector {
        let viewport = painter.viewport
        return Vector((pixel.x - viewport.origin.x) / viewport.scale, (viewport.origin.y - pixel.y) / viewport.scale)
    }
}

extension Canvas {
    /// An image canvas's pixels as Cairo holds them (native-endian ARGB32, `stride` bytes a
    /// row), flushed; valid while the canvas lives and is not drawn on. For a window to show.
    public var pixelAddress: UnsafePointer<UInt8>? {
        guard format == .png else { return nil }
        cairo_surface_flush(surface)
        return cairo_image_surface_get_data(surface).map { UnsafePointer($0) }
    }
}
