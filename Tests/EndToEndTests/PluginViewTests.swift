// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Pictures
import Testing
#if canImport(Glibc)
import Glibc
#endif

// The plugin's UI without a host: the notify port's frames through the headless host
// (Tools/lv2host.c --ui / --notify), and the UI's drawing (clumsy_view_*, what ui.c puts in
// its window) against `clumsy draw`. The UI in a real host (jalv.gtk3 under Xvfb) is in
// PluginUITests, with the JACK suite.

/// The UI's drawing and the engine's frames, loaded from the plugin's library and driven
/// through its C interface (clumsy_lv2.h) as ui.c and plugin.c drive them.
final class ViewDriver {
    typealias New = @convention(c) (UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
    typealias Port = @convention(c) (UnsafeMutableRawPointer, UInt32, Float) -> Void
    typealias Frame = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer, UInt32) -> Int32
    typealias Render = @convention(c) (UnsafeMutableRawPointer, Int32, Int32, UnsafeMutablePointer<UnsafePointer<UInt8>?>,
                                       UnsafeMutablePointer<Int32>) -> Int32
    typealias Free = @convention(c) (UnsafeMutableRawPointer) -> Void
    typealias EngineNew = @convention(c) (UnsafePointer<CChar>, Double) -> UnsafeMutableRawPointer?
    typealias Activate = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Int32
    typealias EngineFrame = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Int32

    /// Bytes of a ClumsyFrame: its header (36) and 1001 balls of two 16-bit values.
    static let frameSize = 36 + 4 * 1001

    let view: UnsafeMutableRawPointer
    let port: Port, frame: Frame, render: Render, free: Free
    let engineNew: EngineNew, activate: Activate, engineFrame: EngineFrame
    let bundle: String

    init?(library: String, bundle: String) {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }
        guard let new = symbol("clumsy_view_new", as: New.self), let port = symbol("clumsy_view_port", as: Port.self),
              let frame = symbol("clumsy_view_frame", as: Frame.self), let render = symbol("clumsy_view_render", as: Render.self),
              let free = symbol("clumsy_view_free", as: Free.self), let engineNew = symbol("clumsy_engine_new", as: EngineNew.self),
              let activate = symbol("clumsy_engine_activate", as: Activate.self),
              let engineFrame = symbol("clumsy_engine_frame", as: EngineFrame.self), let view = new(bundle) else { return nil }
        (self.view, self.port, self.frame, self.render, self.free) = (view, port, frame, render, free)
        (self.engineNew, self.activate, self.engineFrame, self.bundle) = (engineNew, activate, engineFrame, bundle)
    }

    deinit { free(view) }

    /// The control ports (index → value), as a host's port events give them.
    func set(_ ports: [Int: Float]) {
        for (index, value) in ports { port(view, UInt32(index), value) }
    }

    /// The view drawn at `width` × `height`: B, G, R, A bytes a pixel, rows top to bottom.
    func pixels(width: Int, height: Int) throws -> [UInt8] {
        var address: UnsafePointer<UInt8>?
        var stride: Int32 = 0
        try #require(render(view, Int32(width), Int32(height), &address, &stride) == 0, "the view drew nothing")
        let base = try #require(address)
        var bytes: [UInt8] = []
        for row in 0..<height { bytes += UnsafeBufferPointer(start: base + row * Int(stride), count: 4 * width) }
        return bytes
    }

    /// The frame an engine of the ports `controls` (11 floats, ClumsyControls) sends when
    /// activated, before its first block: the balls at their starts.
    func startFrame(controls: [Float]) throws -> [UInt8] {
        let engine = try #require(engineNew(bundle, 48_000))
        try #require(controls.withUnsafeBytes { activate(engine, $0.baseAddress!) } == 0)
        var bytes = [UInt8](repeating: 0, count: Self.frameSize)
        try #require(bytes.withUnsafeMutableBytes { engineFrame(engine, $0.baseAddress!) } == 1)
        // The engine is left to the process's end (its free function is not this test's subject).
        return bytes
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { frame(view, $0.baseAddress!, UInt32($0.count)) }
    }
}

/// `clumsy draw PRESET --seed SEED --size WxH` as B, G, R, A bytes (ffmpeg decodes the PNG).
func drawnPixels(_ preset: String, seed: Int, width: Int, height: Int, in directory: TemporaryDirectory) async throws -> [UInt8] {
    let png = directory.file("\(preset)-\(width)x\(height).png"), raw = png + ".bgra"
    let draw = try await CLI.run(["draw", preset, "--seed", "\(seed)", "--size", "\(width)x\(height)", "-o", png])
    try #require(draw.status == 0, "\(draw)")
    let decode = try await CLI.run(["-v", "error", "-y", "-i", png, "-f", "rawvideo", "-pix_fmt", "bgra", raw], executable: "/usr/bin/ffmpeg")
    try #require(decode.status == 0, "\(decode)")
    return Array(try Data(contentsOf: URL(fileURLWithPath: raw)))
}

@Suite("The plugin's UI without a host: frames on the notify port, the drawing against clumsy draw",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pkg-config") && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"),
                "needs liblilv-dev and ffmpeg"))
struct PluginViewTests {
    /// "ui frames: N, largest atom B bytes, C balls in the last" from lv2host's stderr.
    func frames(_ result: RunResult) throws -> (count: Int, largest: Int, balls: Int) {
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("ui frames:") }, "\(result.stderr)")
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        try #require(numbers.count == 3, "\(line)")
        return (numbers[0], numbers[1], numbers[2])
    }

    @Test("The notify port: no frame until the UI says on; then about 30 a second, each under 8 KB with swarm's 1001 balls; the notes stay the same")
    func notifyFrames() async throws {
        let harness = try await PluginHarness()
        let swarm = try harness.presetIndex("swarm")
        let (plain, _) = try await harness.run(seconds: 4, ["--preset", "\(swarm)"])
        let (closed, closedRun) = try await harness.run(seconds: 4, ["--preset", "\(swarm)", "--notify"])
        let (open, openRun) = try await harness.run(seconds: 4, ["--preset", "\(swarm)", "--ui"])
        #expect(try frames(closedRun).count == 0, "frames written with no UI open")
        let seen = try frames(openRun)
        // 4 s at 30 a second, in 256-frame blocks: 120, give or take the blocks' rounding.
        #expect((110...125).contains(seen.count), "\(seen.count) frames in 4 s")
        #expect(seen.largest <= 8192 && seen.largest > 4 * 1001, "largest frame atom \(seen.largest) bytes")
        #expect(seen.balls == 1001)
        #expect(!plain.isEmpty && plain == closed && plain == open, "the notes change when a UI is open")
    }

    @Test("The drop port: a change drops a ball at the next step (the notes before it stay, after it they change); its value at activate drops none")
    func dropPort() async throws {
        let harness = try await PluginHarness()
        let (plain, _) = try await harness.run(seconds: 6, [])
        let (dropped, _) = try await harness.run(seconds: 6, ["96000:port:drop=500"])
        let (restored, _) = try await harness.run(seconds: 6, ["--drop", "500"])
        let before = { (messages: [PluginMessage]) in messages.filter { $0.frame < 96_000 } }
        #expect(!before(plain).isEmpty && before(plain) == before(dropped), "the notes before the drop changed")
        #expect(plain != dropped, "a drop changed nothing")
        #expect(restored == plain, "the drop port's value at activate dropped a ball")
    }

    @Test("Release build: run() allocates nothing with the UI open and the output ports connected (every bundled preset, 4 s each; swarm 20 s; a drop at 1 s)",
          .enabled(if: FileManager.default.fileExists(atPath: projectRoot + "/.build/release/libClumsyLV2.so"), "make test builds the release library"))
    func noAllocationsWithTheUIOpen() async throws {
        let harness = try await PluginHarness(products: projectRoot + "/.build/release")
        let names = try String(contentsOfFile: harness.bundle + "/presets.txt", encoding: .utf8).split(separator: "\n")
        for (index, name) in names.enumerated() {
            let seconds = name == "swarm" ? 20 : 4
            let (_, result) = try await harness.run(seconds: Double(seconds), ["--preset", "\(index)", "--ui", "--outputs", "--allocations",
                                                                                    "48000:port:drop=300"])
            #expect(result.stderr.contains("allocations in run(): 0 over"), "\(name): \(result.stderr)")
            #expect(try frames(result).count > 25 * seconds, "\(name): \(result.stderr)")
        }
    }

    /// Tolerance: drawn first in a fresh process, the view is `clumsy draw`'s picture pixel for
    /// pixel (measured: 0 of 409 600 pixels differ for pulse at 640×640). Once a process has drawn
    /// text at other sizes (another size of window, or another test's picture in this process),
    /// Cairo and FreeType's shared glyph caches place some glyphs' edge pixels differently: 3 389
    /// pixels (0.83 %) of pulse at 640×640 after a 450×800 drawing, all of them in text. Hence 1.5 %.
    static let textTolerance = 0.015

    @Test("The UI draws its ports' world as clumsy draw does (within 1.5 % of pixels, text edges); with the engine's first frame, the world within 1.5 % too")
    func goldenAgainstDraw() async throws {
        let harness = try await PluginHarness()
        let view = try #require(ViewDriver(library: CLI.productsDirectory + "/libClumsyLV2.so", bundle: harness.bundle))
        let directory = try TemporaryDirectory(prefix: "view")
        for (preset, seed, width, height) in [("default", 1, 800, 450), ("swarm", 5, 450, 800), ("pulse", 3, 640, 640)] {
            let index = try harness.presetIndex(preset)
            view.set([2: Float(index), 3: Float(seed)])
            let drawn = try view.pixels(width: width, height: height)
            let expected = try await drawnPixels(preset, seed: seed, width: width, height: height, in: directory)
            try #require(drawn.count == expected.count)
            let differing = stride(from: 0, to: drawn.count, by: 4).filter { drawn[$0..<$0 + 4] != expected[$0..<$0 + 4] }.count
            #expect(Double(differing) <= Self.textTolerance * Double(width * height),
                    "\(preset) \(width)×\(height): \(differing) pixels differ from clumsy draw's")
        }
        // The engine's frame of default (seed 1) at its start: the balls where clumsy draw puts
        // them, within the 16-bit quantisation (half a millimetre); the panel adds the bar.
        view.set([2: Float(try harness.presetIndex("default")), 3: 1])
        view.send(try view.startFrame(controls: [Float(try harness.presetIndex("default")), 1, -1, 0, -1, -1, -1, -1, -1, 0, 0]))
        let drawn = try view.pixels(width: 800, height: 450)
        let expected = try await drawnPixels("default", seed: 1, width: 800, height: 450, in: directory)
        let world = Composition(width: 800, height: 450, withRoll: false).world
        var (inWorld, differingInWorld, differingElsewhere) = (0, 0, 0)
        for y in 0..<450 {
            for x in 0..<800 {
                let at = 4 * (y * 800 + x)
                let differs = drawn[at..<at + 4] != expected[at..<at + 4]
                if Double(x) >= world.minX && Double(x) < world.maxX && Double(y) >= world.minY && Double(y) < world.maxY {
                    inWorld += 1
                    if differs { differingInWorld += 1 }
                } else if differs {
                    differingElsewhere += 1
                }
            }
        }
        #expect(Double(differingInWorld) <= Self.textTolerance * Double(inWorld), "\(differingInWorld) of \(inWorld) world pixels differ from clumsy draw's")
        #expect(differingElsewhere > 0, "the panel shows no bar")
    }
}
