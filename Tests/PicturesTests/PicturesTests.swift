// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Testing
@testable import Pictures

extension Canvas {
    /// The colour of one pixel of an image canvas, read from its bytes (Cairo's ARGB32: B, G, R, A).
    func pixel(x: Int, y: Int) throws(PictureError) -> Colour {
        let stride = self.stride
        return try withPixels { (bytes) throws(PictureError) -> Colour in
            let offset = y * stride + x * 4
            return Colour(Double(bytes[offset + 2]) / 255, Double(bytes[offset + 1]) / 255, Double(bytes[offset]) / 255,
                          Double(bytes[offset + 3]) / 255)
        }
    }
}

/// A small drawing: one area, one bouncer, two keys, two balls.
func sampleDrawing() -> Drawing {
    Drawing(areas: [Drawing.Area(box: Rect(minX: 0, minY: 0, maxX: 4, maxY: 3), name: "area")], fillers: [],
          bouncers: [Drawing.Bouncer(center: Vector(2, 2), radius: 0.4, label: "I", detail: "Cmaj7", hue: 0)],
          keys: [Drawing.Key(box: Rect(minX: 0.2, minY: 0, maxX: 1.8, maxY: 0.2), label: "root", hue: 0),
                 Drawing.Key(box: Rect(minX: 2.2, minY: 0, maxX: 3.8, maxY: 0.2), label: "3rd", hue: 1)],
          balls: [Drawing.Ball(start: Vector(1, 1), radius: 0.2, isBass: true), Drawing.Ball(start: Vector(3, 2.5), radius: 0.1, isBass: false)],
          title: "test", legend: ["seed 1"])
}

func brightness(_ c: Colour) -> Double { (c.red + c.green + c.blue) / 3 }

@Suite("Pictures")
struct PicturesTests {
    @Test("The viewport fits the world inside the frame at its top, centred across, keeps its aspect and turns y up into y down")
    func viewport() {
        let v = Viewport(fitting: Rect(minX: 0, minY: 0, maxX: 4, maxY: 2), into: Rect(minX: 10, minY: 10, maxX: 410, maxY: 410))
        #expect(v.scale == 100)
        let topLeft = v.map(Vector(0, 2)), bottomRight = v.map(Vector(4, 0))
        #expect(topLeft == Vector(10, 10) && bottomRight == Vector(410, 210))   // at the frame's top
        let box = v.map(Rect(minX: 1, minY: 0, maxX: 2, maxY: 1))
        #expect(box.minX == 110 && box.maxX == 210 && box.minY == 110 && box.maxY == 210)
        let narrow = Viewport(fitting: Rect(minX: 0, minY: 0, maxX: 2, maxY: 4), into: Rect(minX: 0, minY: 0, maxX: 400, maxY: 400))
        #expect(narrow.scale == 100 && narrow.map(Vector(0, 4)) == Vector(100, 0))   // centred across
    }

    @Test("File extensions choose the format, case-insensitively; others are refused")
    func formats() {
        #expect(PictureFormat(path: "a/b.PNG") == .png)
        #expect(PictureFormat(path: "x.svg") == .svg && PictureFormat(path: "x.pdf") == .pdf)
        #expect(PictureFormat(path: "x.gif") == nil && PictureFormat(path: "dir.png/x") == nil && PictureFormat(path: "png") == nil)
        #expect(VideoContainer(path: "v.MP4") == .mp4 && VideoContainer(path: "v.webm") == .webm && VideoContainer(path: "v.mkv") == nil)
    }

    @Test("Every surface encodes to its file format; a PNG's pixels are the colours drawn")
    func surfaces() throws {
        let canvas = try Canvas(width: 20, height: 10)
        canvas.clear(Colour(0, 0, 0))
        canvas.fill(Rect(minX: 10, minY: 0, maxX: 20, maxY: 10), Colour(1, 0, 0))
        #expect(try canvas.pixel(x: 2, y: 5) == Colour(0, 0, 0))
        #expect(try canvas.pixel(x: 15, y: 5) == Colour(1, 0, 0))
        #expect(try canvas.encoded().prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        let svg = try Canvas(width: 20, height: 10, format: .svg)
        svg.fill(Rect(minX: 0, minY: 0, maxX: 5, maxY: 5), Colour(0, 1, 0))
        #expect(String(decoding: try svg.encoded(), as: UTF8.self).contains("<svg"))
        let pdf = try Canvas(width: 20, height: 10, format: .pdf)
        #expect(String(decoding: try pdf.encoded().prefix(5), as: UTF8.self) == "%PDF-")
    }

    @Test("A key flashes from the frame of its hit and fades; the bass ball is drawn where it is")
    func flashes() throws {
        let roll = Roll(title: "", legend: [], lanes: [Roll.Lane(name: "Keys", pitches: 60...72)], notes: [], chords: [],
                        secondsPerBeat: 0.5, beatsPerBar: 4, duration: 10)
        let renderer = try VideoFrameRenderer(drawing: sampleDrawing(), width: 640, height: 360, roll: roll)
        let key = renderer.painter.pixelBox(ofKey: 1)
        let probe = (x: Int(key.minX + 3), y: Int(key.center.y))
        renderer.keyHits[1] = 1.0
        try renderer.render(at: 0.99)
        let dark = try renderer.canvas.pixel(x: probe.x, y: probe.y)
        try renderer.render(at: 1.0)
        let lit = try renderer.canvas.pixel(x: probe.x, y: probe.y)
        try renderer.render(at: 2.0)
        let faded = try renderer.canvas.pixel(x: probe.x, y: probe.y)
        #expect(brightness(lit) > brightness(dark) + 0.2, "dark \(dark), lit \(lit)")
        #expect(abs(brightness(faded) - brightness(dark)) < 0.02)
        #expect(VideoFrameRenderer.flash(since: 1, now: 0.9) == 0 && VideoFrameRenderer.flash(since: 1, now: 1) == 1)

        let spot = renderer.painter.viewport.map(Vector(3, 1.5))
        let before = try renderer.canvas.pixel(x: Int(spot.x), y: Int(spot.y))
        renderer.positions[0] = Vector(3, 1.5)
        try renderer.render(at: 2.0)
        let after = try renderer.canvas.pixel(x: Int(spot.x), y: Int(spot.y))
        #expect(before != after && after.red > 0.9, "the bass ball is not at its new position: \(after)")
    }

    @Test("A roll draws each note's bar in its lane's colour, and nothing where there is no note")
    func rollBars() throws {
        let roll = Roll(title: "t", legend: [], lanes: [Roll.Lane(name: "A", pitches: 60...61)],
                        notes: [Roll.Note(lane: 0, start: 2, end: 4, pitch: 60, velocity: 127)], chords: [Roll.ChordMark(time: 0, name: "C")],
                        secondsPerBeat: 1, beatsPerBar: 4, duration: 10)
        let canvas = try Canvas(width: 500, height: 200)
        let box = Rect(minX: 0, minY: 0, maxX: 500, maxY: 200)
        var scratch: [Double] = []
        RollPainter.draw(roll, on: canvas, in: box, from: 0, to: 10, textSize: 10, firstNote: 0, playhead: nil, drawnUpTo: &scratch)
        // Pitch 60 is the lane's lowest row: the bar lies at the bottom, from x = 100 to 200.
        let inBar = try canvas.pixel(x: 150, y: 195)
        let outside = try canvas.pixel(x: 300, y: 195)
        #expect(inBar.red > 0.9 && inBar.green > 0.5, "\(inBar)")
        #expect(brightness(outside) < 0.2, "\(outside)")
    }

    @Test("Frames become BT.601 limited-range yuv420p: white, black and red land on the standard values")
    func yuvConversion() throws {
        let canvas = try Canvas(width: 4, height: 2)
        canvas.fill(Rect(minX: 0, minY: 0, maxX: 2, maxY: 2), Colour(1, 1, 1))
        canvas.fill(Rect(minX: 2, minY: 0, maxX: 4, maxY: 2), Colour(1, 0, 0))
        var out = [UInt8](repeating: 0, count: 12)
        try canvas.withPixels { bytes in
            out.withUnsafeMutableBufferPointer { VideoEncoder.convertToYUV420(bgra: bytes, rowBytes: canvas.stride, width: 4, height: 2, into: $0) }
        }
        #expect(Array(out[0..<8]) == [235, 235, 82, 82, 235, 235, 82, 82])   // Y rows
        #expect(Array(out[8..<10]) == [128, 90])                              // U: white, red
        #expect(Array(out[10..<12]) == [128, 240])                            // V: white, red
        canvas.clear(Colour(0, 0, 0))
        try canvas.withPixels { bytes in
            out.withUnsafeMutableBufferPointer { VideoEncoder.convertToYUV420(bgra: bytes, rowBytes: canvas.stride, width: 4, height: 2, into: $0) }
        }
        #expect(Array(out[0..<8]) == Array(repeating: 16, count: 8) && Array(out[8...]) == [128, 128, 128, 128])
    }
}
