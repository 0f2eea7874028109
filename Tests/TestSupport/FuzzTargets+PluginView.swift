// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#endif

/// The plugin's UI drawing (`clumsy_view_*` of `libClumsyLV2.so`), driven as ui.c drives it:
/// an input is a frame as a host hands it on from the notify port (any bytes, any length: a
/// host, or a plugin of another version, may send anything), then a small drawing.
public final class PluginViewDriver: @unchecked Sendable {
    typealias New = @convention(c) (UnsafePointer<CChar>) -> UnsafeMutableRawPointer?
    typealias Frame = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer, UInt32) -> Int32
    typealias Render = @convention(c) (UnsafeMutableRawPointer, Int32, Int32, UnsafeMutablePointer<UnsafePointer<UInt8>?>,
                                       UnsafeMutablePointer<Int32>) -> Int32

    private let view: UnsafeMutableRawPointer
    private let frame: Frame, render: Render

    /// Loads `library` and makes a view of the bundle at `bundle` (presets.txt, presets/).
    public init?(library: String, bundle: String) {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }
        guard let new = symbol("clumsy_view_new", as: New.self), let frame = symbol("clumsy_view_frame", as: Frame.self),
              let render = symbol("clumsy_view_render", as: Render.self), let view = new(bundle) else { return nil }
        (self.view, self.frame, self.render) = (view, frame, render)
    }

    /// Hands `input` to the view as a frame and draws 64 × 48 pixels; true when the view took
    /// the frame (false: ignored, too short) and drew.
    public func run(_ input: [UInt8]) -> Bool {
        let taken = input.isEmpty ? false : input.withUnsafeBytes { frame(view, $0.baseAddress!, UInt32($0.count)) } == 1
        var pixels: UnsafePointer<UInt8>?
        var stride: Int32 = 0
        return render(view, 64, 48, &pixels, &stride) == 0 && taken
    }

    /// Seed frames: default's six balls at their box's corners and middle, a swarm-sized one,
    /// and one with every field at an extreme.
    public static func seeds() -> [[UInt8]] {
        func bytes<T>(_ values: [T]) -> [UInt8] {
            var out: [UInt8] = []
            for value in values { withUnsafeBytes(of: value) { out += $0 } }
            return out
        }
        func frame(box: [Float], beats: Float, perBar: Float, degree: Int32, hits: UInt32, xy: [UInt16]) -> [UInt8] {
            bytes(box + [beats, perBar]) + bytes([degree]) + bytes([hits, UInt32(xy.count / 2)]) + bytes(xy)
        }
        let six = frame(box: [-0.5, -0.5, 8, 5], beats: 9.5, perBar: 4, degree: 5, hits: 1 << 4 | 1 << 17,
                        xy: [0, 0, 65534, 65534, 32767, 32767, 65535, 65535, 100, 60000, 60000, 100])
        let swarm = frame(box: [0, 0, 30, 20], beats: 0, perBar: 3, degree: 1, hits: 0, xy: (0..<2002).map { UInt16($0 * 32 % 65535) })
        let wild = frame(box: [.nan, .infinity, -.infinity, 1e30], beats: .infinity, perBar: .nan, degree: .max, hits: .max,
                         xy: [65535, 0, 0, 65535])
        return [six, swarm, wild, Array(six.prefix(35))]
    }
}

extension FuzzTarget {
    /// The frames the plugin's UI reads from its host (`PluginViewDriver`): a trap or a hang is a
    /// finding; a frame too short to read is rejected (ignored), the rest accepted when drawn.
    public static func pluginFrames(driver: PluginViewDriver) -> FuzzTarget {
        let tokens: [[UInt8]] = [Float.nan, .infinity, -.infinity, 1e30, -1, 0, 1000].map { value in withUnsafeBytes(of: value) { [UInt8]($0) } }
            + [[0xFF, 0xFF], [0xFE, 0xFF], [0xFF, 0xFF, 0xFF, 0xFF]]
        return FuzzTarget(name: "plugin-frames", seeds: PluginViewDriver.seeds(), tokens: tokens, structure: .bytes) { input, _ in
            driver.run(input) ? .accepted : .rejected
        }
    }
}
