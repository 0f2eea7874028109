// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CClumsyLV2
import Engine
import Geometry
import Pictures
import WorldDrawing
#if canImport(Glibc)
import Glibc
#endif

/// The UI's drawing (called by the X11 window of ui.c, on the host's UI thread, maybe in
/// another process than the plugin): the world of the control ports as the host tells them
/// (`PlanDrawing` of their session plan: what `clumsy draw` draws), with the balls, the lit
/// bouncers and keys, the chord and the bar of the last frame the plugin sent.
final class PluginView {
    let presetPaths: [String]
    /// The control ports by index (2…12: preset … keys_channel), at their defaults until the host tells them.
    private var ports: [Float] = [0, 0, 0, 0, -1, 0, -1, -1, -1, -1, -1, 0, 0]
    /// The session's drawing, made again when a port that changes it moves.
    private var drawing: Drawing?
    /// Where the session drops piano balls (a click's place is across its width).
    private var dropRegion: Rect?
    private var isStale = true
    private var renderer: LiveFrameRenderer?
    /// The last frame's balls (nil until a frame came: the balls at their starts).
    private var positions: [Vector]?
    private var degree = 0
    private var bar = ""
    /// Bouncers and keys struck in the frames since the last drawing.
    private var hits: UInt32 = 0
    private var lastRender: Double?

    init(presetPaths: [String]) {
        self.presetPaths = presetPaths
    }

    /// A control port's value from the host.
    func port(_ index: Int, _ value: Float) {
        guard ports.indices.contains(index), index >= 2, ports[index] != value || value.isNaN else { return }
        ports[index] = value
        if index <= 10 { isStale = true }   // the channels (11, 12) draw nothing
    }

    /// A frame from the plugin; false when a short one is ignored.
    @discardableResult
    func frame(_ bytes: UnsafeRawPointer, size: Int) -> Bool {
        let header = 36   // offsetof(ClumsyFrame, xy)
        guard size >= header else { return false }
        var frame = ClumsyFrame()
        withUnsafeMutableBytes(of: &frame) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: min(size, $0.count))) }
        let count = min(Int(frame.count), (size - header) / 4, Int(CLUMSY_FRAME_BALLS))
        let (minX, minY, maxX, maxY) = (Double(frame.box.0), Double(frame.box.1), Double(frame.box.2), Double(frame.box.3))
        let scale = Double(CLUMSY_FRAME_OUT - 1)
        var balls = [Vector](repeating: Vector(.infinity, .infinity), count: count)
        withUnsafeMutablePointer(to: &frame) { pointer in
            let xy = clumsy_frame_xy(pointer)!
            for ball in 0..<count where xy[2 * ball] != UInt16(CLUMSY_FRAME_OUT) {
                balls[ball] = Vector(minX + Double(xy[2 * ball]) / scale * (maxX - minX), minY + Double(xy[2 * ball + 1]) / scale * (maxY - minY))
            }
        }
        positions = balls
        degree = Int(frame.degree)
        hits |= frame.hits
        let perBar = frame.beats_per_bar >= 1 ? Double(frame.beats_per_bar) : 4
        let beats = max(0, Double(frame.beats))
        bar = beats.isFinite && beats < 1e9 ? "bar \(Int(beats / perBar) + 1) · beat \(Int(beats.truncatingRemainder(dividingBy: perBar)) + 1)" : ""
        return true
    }

    /// Draws `width` × `height` pixels; nil when there is nothing to draw (no session).
    func render(width: Int, height: Int) -> Canvas? {
        if isStale { rebuild() }
        guard let drawing, width > 0, height > 0 else { return nil }
        if renderer.map({ $0.canvas.width != width || $0.canvas.height != height }) ?? true {
            renderer = try? LiveFrameRenderer(drawing: drawing, width: width, height: height)
        }
        guard let renderer else { return nil }
        let now = Self.seconds()
        let fade = exp(-min(max(now - (lastRender ?? now), 0), 1) / VideoFrameRenderer.flashDecay)
        lastRender = now
        for (index, bouncer) in drawing.bouncers.enumerated() {
            renderer.bouncerFlash[index] = hits & (1 << UInt32(min(bouncer.hue, 15))) != 0 ? 1 : renderer.bouncerFlash[index] * fade
        }
        for index in drawing.keys.indices {
            renderer.keyFlash[index] = index < 16 && hits & (1 << UInt32(16 + index)) != 0 ? 1 : renderer.keyFlash[index] * fade
        }
        hits = 0
        if let positions {
            for index in renderer.positions.indices { renderer.positions[index] = index < positions.count ? positions[index] : Vector(.infinity, .infinity) }
        }
        let chordBouncer = drawing.bouncers.first { $0.hue == degree - 1 }
        (renderer.chord, renderer.numeral, renderer.chordHue) = chordBouncer.map { ($0.detail, $0.label, $0.hue) } ?? ("", "", -1)
        renderer.bar = bar
        guard (try? renderer.render()) != nil else { return nil }
        return renderer.canvas
    }

    /// The drop port's value for a click at pixel (`x`, `y`) of the last drawing: its place
    /// across the drop region (0…1000), when the click is in the piano area.
    func place(x: Double, y: Double) -> Float? {
        guard let renderer, let drawing, let region = dropRegion, let piano = drawing.areas.first(where: { $0.name == "piano" }),
              region.width > 0 else { return nil }
        let point = renderer.worldPoint(atPixel: Vector(x, y))
        guard piano.box.contains(point) else { return nil }
        return Float((min(max((point.x - region.minX) / region.width, 0), 1) * 1000).rounded())
    }

    /// The drawing of the ports' session (the last one kept when they name none it can build).
    private func rebuild() {
        isStale = false
        let c = ClumsyControls(preset: ports[2], seed: ports[3], gravity: ports[4], speed: ports[5], key: ports[6], mode: ports[7],
                               quantize: ports[8], swing: ports[9], balls: ports[10], bass_channel: ports[11], keys_channel: ports[12])
        do {
            let plan = try PluginEngine.plan(PluginControls(c), presetPaths: presetPaths)
            drawing = PlanDrawing.drawing(for: plan)
            dropRegion = plan.layout.dropRegion
            renderer = nil
            positions = nil
        } catch {
            report(error)
        }
    }

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
