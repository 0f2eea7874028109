// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
import Glibc
#endif

/// The LV2 plugin's engine, loaded from its shared library (`libClumsyLV2.so`) and driven
/// through its C interface (`clumsy_lv2.h`) as the plugin's LV2 shim drives it: an input is
/// the control ports at `activate()`, a `time:Position`, the ports moved in `run()` and a
/// second position, as raw floats and doubles, so every bit pattern (NaN, ±∞, 1e30, a seed past
/// 2⁶⁴, bar 1e9) reaches it. A relocation is prepared as the worker would, when it is near
/// (≤ 10 s of session time, to keep an input short) or beyond any reach (refused at once).
public final class PluginEngineDriver: @unchecked Sendable {
    typealias New = @convention(c) (UnsafePointer<CChar>, Double) -> UnsafeMutableRawPointer?
    typealias Activate = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Int32
    typealias Transport = @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void
    typealias Controls = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    typealias Process = @convention(c) (UnsafeMutableRawPointer, UInt32, UInt32, UnsafeMutableRawPointer, UInt32) -> UInt32
    typealias TakeSeek = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Int32
    typealias Prepare = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    typealias Adopt = @convention(c) (UnsafeMutableRawPointer) -> Void

    /// Bytes of ClumsyControls (11 floats), ClumsyTransport (7 doubles, 7 int32, padded) and ClumsySeek.
    static let controlsSize = 44, transportSize = 88, seekSize = 64
    /// Bytes of one input the driver reads (shorter inputs are zero-filled).
    public static let inputSize = 2 * controlsSize + 2 * transportSize

    private let engine: UnsafeMutableRawPointer
    private let activate: Activate, transport: Transport, controls: Controls, process: Process
    private let takeSeek: TakeSeek, prepare: Prepare, adopt: Adopt
    private var out = [UInt8](repeating: 0, count: 8 * 4096)

    /// Loads `library` and makes an engine of the bundle at `bundle` (presets.txt, presets/).
    public init?(library: String, bundle: String) {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let new = symbol("clumsy_engine_new", as: New.self), let activate = symbol("clumsy_engine_activate", as: Activate.self),
              let transport = symbol("clumsy_engine_transport", as: Transport.self),
              let controls = symbol("clumsy_engine_controls", as: Controls.self),
              let process = symbol("clumsy_engine_process", as: Process.self),
              let takeSeek = symbol("clumsy_engine_take_seek", as: TakeSeek.self),
              let prepare = symbol("clumsy_engine_prepare", as: Prepare.self), let adopt = symbol("clumsy_engine_adopt", as: Adopt.self),
              let engine = new(bundle, 48_000) else { return nil }
        (self.engine, self.activate, self.transport, self.controls, self.process) = (engine, activate, transport, controls, process)
        (self.takeSeek, self.prepare, self.adopt) = (takeSeek, prepare, adopt)
    }

    /// Runs one input; true when `activate()` accepted its controls.
    public func run(_ input: [UInt8]) -> Bool {
        var bytes = Array(input.prefix(Self.inputSize))
        bytes += [UInt8](repeating: 0, count: Self.inputSize - bytes.count)
        let (c1, t1) = (0, Self.controlsSize)
        let (c2, t2) = (t1 + Self.transportSize, t1 + Self.transportSize + Self.controlsSize)
        return bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!
            let accepted = activate(engine, base + c1) == 0
            transport(engine, 0, base + t1)
            block()
            controls(engine, base + c2)
            transport(engine, 128, base + t2)
            block()
            work()
            block()
            return accepted
        }
    }

    private func block() {
        _ = out.withUnsafeMutableBytes { process(engine, 0, 256, $0.baseAddress!, 4096) }
    }

    /// The worker: a near relocation prepared, a far one left to be refused, the rest left waiting.
    private func work() {
        var seek = [UInt8](repeating: 0, count: Self.seekSize)
        guard seek.withUnsafeMutableBytes({ takeSeek(engine, $0.baseAddress!) }) == 1 else { return }
        let (beats, bpm) = seek.withUnsafeBytes { ($0.load(fromByteOffset: 0, as: Double.self), $0.load(fromByteOffset: 8, as: Double.self)) }
        let time = beats * 60 / bpm
        guard time <= 10 || !time.isFinite || time > 3600 * 16 else { return }
        seek.withUnsafeBytes { prepare(engine, $0.baseAddress!) }
        adopt(engine)
    }

    /// Seed inputs: the default ports rolling at bar 0, then a jump to bar 2 with a new seed;
    /// and ports and positions at their extremes.
    public static func seeds() -> [[UInt8]] {
        func bytes<T>(_ values: [T]) -> [UInt8] {
            var out: [UInt8] = []
            for value in values { withUnsafeBytes(of: value) { out += $0 } }
            return out
        }
        func controls(_ values: [Float]) -> [UInt8] { bytes(values) }
        func transport(bpm: Double, bar: Double, beat: Double, speed: Double, frame: Double) -> [UInt8] {
            bytes([bpm, bar, beat, 4, 4, speed, frame]) + bytes([Int32](repeating: 1, count: 7)) + [0, 0, 0, 0]
        }
        let own: [Float] = [0, 0, -1, 0, -1, -1, -1, -1, -1, 0, 0]
        let start = controls(own) + transport(bpm: 120, bar: 0, beat: 0, speed: 1, frame: 0)
        let jump = controls([0, 7, 9.8, 2, 3, 1, 2, 0.2, 6, 3, 4]) + transport(bpm: 90, bar: 2, beat: 1, speed: 1, frame: 200_000)
        let wild = controls([.nan, 1e30, .infinity, -1e30, 1e30, .nan, 1.9e19, 1e30, 1e30, 1e30, -.infinity])
            + transport(bpm: .nan, bar: 1e9, beat: .infinity, speed: 1, frame: 1e300)
        return [start + jump, start + start, wild + wild, jump + wild]
    }
}

extension FuzzTarget {
    /// The LV2 plugin's control ports and `time:Position` (`PluginEngineDriver`): accepted when
    /// `activate()` builds the session, rejected when it refuses (1000 balls that do not fit);
    /// a trap or a hang is a finding.
    public static func pluginPorts(driver: PluginEngineDriver) -> FuzzTarget {
        let floats: [[UInt8]] = [Float.nan, .infinity, -.infinity, 1e30, 1.9e19, -1, 0.5, 16, 1000].map { value in
            withUnsafeBytes(of: value) { [UInt8]($0) }
        }
        let doubles: [[UInt8]] = [1e9, Double.nan, 1e-300, 1e300, -0.0].map { value in withUnsafeBytes(of: value) { [UInt8]($0) } }
        let tokens = floats + doubles
        return FuzzTarget(name: "plugin-ports", seeds: PluginEngineDriver.seeds(), tokens: tokens, structure: .bytes) { input, _ in
            driver.run(input) ? .accepted : .rejected
        }
    }
}
