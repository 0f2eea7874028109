// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// Maps world metres (y up) to canvas pixels (y down), uniformly scaled.
public struct Viewport: Sendable {
    /// Pixels per metre.
    public var scale: Double
    /// Pixel position of the world's origin.
    public var origin: Vector

    /// The viewport that fits `world` (metres) inside `frame` (pixels), centred across and
    /// at the top (under the legend when that stands above a tall world).
    public init(fitting world: Rect, into frame: Rect) {
        scale = min(frame.width / world.width, frame.height / world.height)
        let usedWidth = world.width * scale
        let left = frame.minX + (frame.width - usedWidth) / 2
        let top = frame.minY
        origin = Vector(left - world.minX * scale, top + world.maxY * scale)
    }

    /// A point in pixels.
    public func map(_ p: Vector) -> Vector { Vector(origin.x + p.x * scale, origin.y - p.y * scale) }

    /// A rectangle in pixels.
    public func map(_ b: Rect) -> Rect {
        Rect(minX: origin.x + b.minX * scale, minY: origin.y - b.maxY * scale,
             maxX: origin.x + b.maxX * scale, maxY: origin.y - b.minY * scale)
    }
}

/// Where the parts of a picture go on a canvas of a given size.
public struct Composition: Sendable {
    /// Canvas size, pixels.
    public var width: Int, height: Int
    /// The side panel (legend, active chord).
    public var panel: Rect
    /// The world.
    public var world: Rect
    /// The piano roll strip (video only), or nil.
    public var roll: Rect?
    /// Base text size, pixels.
    public var textSize: Double

    /// Base text size for a canvas whose shorter side is `side` pixels: 15 px at 720, at least
    /// 6 px from 150 px up; smaller canvases get text too small to draw, and show none.
    static func textSize(forShortSide side: Double) -> Double {
        let scaled = (side / 720 * 15).rounded()
        return side >= 150 ? max(6, scaled) : scaled
    }

    /// The layout of a world picture (`withRoll` false) or a video frame (true).
    public init(width: Int, height: Int, withRoll: Bool) {
        self.width = width
        self.height = height
        let w = Double(width), h = Double(height)
        let margin = (0.025 * min(w, h)).rounded()
        textSize = Self.textSize(forShortSide: min(w, h))
        var bottom = h - margin
        if withRoll {
            let rollHeight = (0.15 * h).rounded()
            roll = Rect(minX: margin, minY: h - margin - rollHeight, maxX: w - margin, maxY: h - margin)
            bottom = h - 2 * margin - rollHeight
        } else {
            roll = nil
        }
        if w >= 1.25 * h {
            let panelWidth = (0.24 * w).rounded()
            panel = Rect(minX: margin, minY: margin, maxX: margin + panelWidth, maxY: bottom)
            world = Rect(minX: 2 * margin + panelWidth, minY: margin, maxX: w - margin, maxY: bottom)
        } else {
            let panelHeight = (0.24 * (bottom - margin)).rounded()
            panel = Rect(minX: margin, minY: margin, maxX: w - margin, maxY: margin + panelHeight)
            world = Rect(minX: margin, minY: 2 * margin + panelHeight, maxX: w - margin, maxY: bottom)
        }
    }
}

/// Paints a `Drawing` to scale: areas and walls, silent fillers, bouncers, keys, balls.
public struct WorldPainter: Sendable {
    /// What is drawn.
    public let drawing: Drawing
    /// Metres to pixels.
    public let viewport: Viewport

    /// A painter fitting `drawing` into `frame` (pixels).
    public init(drawing: Drawing, frame: Rect) {
        self.drawing = drawing
        viewport = Viewport(fitting: drawing.bounds, into: frame)
    }

    /// The pixel rectangle of key `index` (0-based, left to right).
    public func pixelBox(ofKey index: Int) -> Rect { viewport.map(drawing.keys[index].box) }

    /// The pixel centre and radius of bouncer `index`.
    public func pixelCircle(ofBouncer index: Int) -> (center: Vector, radius: Double) {
        let b = drawing.bouncers[index]
        return (viewport.map(b.center), b.radius * viewport.scale)
    }

    func drawAreas(on canvas: Canvas, textSize: Double) {
        let wall = drawing.wallThickness * viewport.scale
        for (index, area) in drawing.areas.enumerated() {
            let box = viewport.map(area.box)
            canvas.fill(box, index == 0 ? Palette.bassArea : Palette.pianoArea)
            canvas.stroke(box.inset(by: -wall / 2), Palette.wall, width: wall)
            // Names sit above the top wall, clear of the bouncers in the corners.
            canvas.text(area.name, at: Vector(box.minX, box.minY - wall - 0.45 * textSize), size: 0.8 * textSize,
                        Palette.dimText)
        }
        for filler in drawing.fillers {
            canvas.fill(viewport.map(filler), Palette.filler)
        }
    }

    /// Draws bouncer `index`, lit by `flash` 0…1.
    func drawBouncer(_ index: Int, on canvas: Canvas, flash: Double, textSize: Double) {
        let b = drawing.bouncers[index]
        let centre = viewport.map(b.center)
        let radius = b.radius * viewport.scale
        let hue = Palette.degree(b.hue)
        // Bouncers on the walls overhang the area: clip them to the area they stand in.
        if let area = drawing.areas.first { canvas.clip(viewport.map(area.box)) }
        canvas.fillCircle(centre, radius: radius, hue.mixed(with: Palette.background, 0.55 - 0.55 * flash).mixed(with: Palette.white, 0.6 * flash))
        canvas.strokeCircle(centre, radius: radius - 1, hue, width: max(1, 0.12 * textSize))
        if drawing.areas.first != nil { canvas.unclip() }
        // Labels go towards the area's inside when the centre sits on a wall.
        var anchor = centre
        if let area = drawing.areas.first {
            let box = viewport.map(area.box)
            let half = max(canvas.textWidth(b.detail, size: 0.9 * textSize), canvas.textWidth(b.label, size: 1.25 * textSize, bold: true)) / 2
            let insetX = min(half + 0.3 * textSize, box.width / 2), insetY = min(1.6 * textSize, box.height / 2)
            anchor.x = min(max(anchor.x, box.minX + insetX), box.maxX - insetX)
            anchor.y = min(max(anchor.y, box.minY + insetY), box.maxY - insetY)
        }
        let labelColour = flash > 0.5 ? Palette.background : Palette.text
        canvas.text(b.label, at: Vector(anchor.x, anchor.y - 0.15 * textSize), size: 1.25 * textSize, labelColour, alignment: .centre, bold: true)
        canvas.text(b.detail, at: Vector(anchor.x, anchor.y + 1.05 * textSize), size: 0.9 * textSize, labelColour, alignment: .centre)
    }

    /// Draws key `index`, lit by `flash` 0…1, with an optional note name under its label.
    func drawKey(_ index: Int, on canvas: Canvas, flash: Double, note: String?, textSize: Double) {
        let key = drawing.keys[index]
        let box = viewport.map(key.box)
        let hue = Palette.tone(key.hue)
        canvas.fill(box, hue.mixed(with: Palette.background, 0.55 - 0.55 * flash).mixed(with: Palette.white, 0.6 * flash), cornerRadius: 2)
        let labelColour = flash > 0.5 ? Palette.background : Palette.text
        let size = min(0.9 * textSize, 0.8 * box.height)
        canvas.text(key.label, at: Vector(box.center.x, box.center.y), size: size, labelColour, alignment: .centre, bold: true, middle: true)
        if let note {
            canvas.text(note, at: Vector(box.center.x, box.minY - 0.5 * textSize), size: 0.85 * textSize, hue, alignment: .centre)
        }
    }

    /// Draws the balls at `positions` (metres; index 0 the bass ball); a ball at a position that
    /// is not finite is out of the world, and not drawn.
    func drawBalls(_ positions: UnsafeBufferPointer<Vector>, on canvas: Canvas) {
        for index in 0..<min(positions.count, drawing.balls.count) where positions[index].isFinite {
            let ball = drawing.balls[index]
            let p = viewport.map(positions[index])
            let r = max(1.5, ball.radius * viewport.scale)
            canvas.fillCircle(p, radius: r, ball.isBass ? Palette.bassBall : Palette.pianoBall)
            if r > 4 { canvas.strokeCircle(p, radius: r, Palette.background.with(alpha: 0.6), width: 1) }
        }
    }

    /// Draws the paths and the hits of a trace.
    func drawTrace(_ trace: Trace, on canvas: Canvas) {
        let width = max(1, 0.006 * viewport.scale)
        let count = trace.paths.count
        for (index, path) in trace.paths.enumerated() where !path.isEmpty {
            let colour = index == 0 ? Palette.bassBall.with(alpha: 0.85)
                : Palette.pianoBall.with(alpha: count > 64 ? 0.12 : 0.45)
            // A jump of more than half a metre between samples is a ball dropped again: no line across it.
            var segment: [Vector] = []
            var last: Vector?
            for p in path {
                if let l = last, abs(p.x - l.x) + abs(p.y - l.y) > 0.5 {
                    canvas.polyline(segment, colour, width: index == 0 ? 1.6 * width : width)
                    segment.removeAll(keepingCapacity: true)
                }
                segment.append(viewport.map(p))
                last = p
            }
            canvas.polyline(segment, colour, width: index == 0 ? 1.6 * width : width)
        }
        let r = max(2.5, 0.03 * viewport.scale)
        for hit in trace.hits {
            let p = viewport.map(hit.position)
            canvas.fillCircle(p, radius: hit.isBass ? 1.4 * r : r, Palette.velocity(hit.velocity).with(alpha: 0.9))
            canvas.strokeCircle(p, radius: hit.isBass ? 1.4 * r : r, Palette.background, width: 1)
        }
    }

    /// The legend: title and lines, then (with a trace) the velocity colour ramp.
    func drawLegend(on canvas: Canvas, in panel: Rect, textSize: Double, withVelocityRamp: Bool, extra: [String] = []) {
        // Items flow down the panel and on into a further column when it is full (a short panel
        // above a square or portrait world).
        var x = panel.minX, y = panel.minY, columnWidth = 0.0
        func place(_ height: Double, width: Double) -> Vector {
            if y + height > panel.maxY && y > panel.minY {
                x += columnWidth + 2 * textSize
                y = panel.minY
                columnWidth = 0
            }
            columnWidth = max(columnWidth, width)
            y += height
            return Vector(x, y)
        }
        let title = place(1.6 * textSize, width: canvas.textWidth(drawing.title, size: 1.6 * textSize, bold: true))
        canvas.text(drawing.title, at: title, size: 1.6 * textSize, Palette.text, bold: true)
        y += 0.3 * textSize
        for line in drawing.legend + extra {
            let p = place(1.45 * textSize, width: canvas.textWidth(line, size: textSize))
            canvas.text(line, at: p, size: textSize, Palette.dimText)
        }
        // A one-metre scale bar: the world is drawn to scale.
        let metre = viewport.scale
        if metre + 3 * textSize < panel.width {
            let p = place(2 * textSize, width: metre + 3 * textSize)
            let yBar = p.y - 0.5 * textSize
            canvas.line(Vector(p.x, yBar), Vector(p.x + metre, yBar), Palette.dimText, width: 2)
            canvas.line(Vector(p.x, yBar - 4), Vector(p.x, yBar + 4), Palette.dimText, width: 2)
            canvas.line(Vector(p.x + metre, yBar - 4), Vector(p.x + metre, yBar + 4), Palette.dimText, width: 2)
            canvas.text("1 m", at: Vector(p.x + metre + 0.5 * textSize, yBar), size: 0.85 * textSize, Palette.dimText, middle: true)
        }
        if withVelocityRamp {
            let width = min(panel.width, 12 * textSize)
            let p = place(4.4 * textSize, width: width)
            let top = p.y - 4.4 * textSize
            canvas.text("hit velocity", at: Vector(p.x, top + 1.2 * textSize), size: textSize, Palette.dimText)
            let steps = 64
            for i in 0..<steps {
                let x0 = p.x + width * Double(i) / Double(steps)
                canvas.fill(Rect(minX: x0, minY: top + 1.7 * textSize, maxX: x0 + width / Double(steps) + 0.5, maxY: top + 2.7 * textSize),
                            Palette.velocity(1 + i * 126 / (steps - 1)))
            }
            canvas.text("1", at: Vector(p.x, top + 3.8 * textSize), size: 0.85 * textSize, Palette.dimText)
            canvas.text("127", at: Vector(p.x + width, top + 3.8 * textSize), size: 0.85 * textSize, Palette.dimText, alignment: .right)
        }
    }
}

/// Still pictures of the world.
public enum WorldPicture {
    /// The world of `drawing` at its start (and with `trace`, the paths and hits of its first
    /// seconds) on a `width` × `height` canvas; returns the file's bytes.
    public static func render(_ drawing: Drawing, trace: Trace? = nil, width: Int, height: Int,
                              format: PictureFormat) throws(PictureError) -> [UInt8] {
        let canvas = try Canvas(width: width, height: height, format: format)
        let layout = Composition(width: width, height: height, withRoll: false)
        let painter = WorldPainter(drawing: drawing, frame: layout.world)
        let t = layout.textSize
        canvas.clear(Palette.background)
        painter.drawAreas(on: canvas, textSize: t)
        for index in drawing.bouncers.indices { painter.drawBouncer(index, on: canvas, flash: 0, textSize: t) }
        for index in drawing.keys.indices { painter.drawKey(index, on: canvas, flash: 0, note: nil, textSize: t) }
        if let trace { painter.drawTrace(trace, on: canvas) }
        let starts = drawing.balls.map(\.start)
        starts.withUnsafeBufferPointer { painter.drawBalls($0, on: canvas) }
        var extra: [String] = []
        if let trace {
            extra.append("trace: first \(formatSeconds(trace.duration)), \(trace.hitCount) hits")
        }
        painter.drawLegend(on: canvas, in: layout.panel, textSize: t, withVelocityRamp: trace != nil, extra: extra)
        return try canvas.encoded()
    }

    static func formatSeconds(_ seconds: Double) -> String {
        let rounded = (seconds * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}
