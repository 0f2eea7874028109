// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CClumsyLV2
import Errors
import Escaping
import Text
#if canImport(Glibc)
import Glibc
#endif

// The engine's C interface (clumsy_lv2.h), called by the LV2 shim. No Swift error or type
// crosses it: failures become NULL or a non-zero status, reported on stderr at instantiate
// and activate (which are not real-time), never from process.

@_cdecl("clumsy_engine_new")
public func clumsyEngineNew(_ bundle: UnsafePointer<CChar>, _ rate: Double) -> UnsafeMutableRawPointer? {
    guard PluginEngine.rates.contains(rate) else {
        // 0 or 1e-300 frames a second would make a block's steps endless; 1e300, its frames.
        report(.usage("a sample rate of \(Format.plain(rate)) Hz is refused: the plugin runs at "
            + "\(Format.plain(PluginEngine.rates.lowerBound))…\(Format.plain(PluginEngine.rates.upperBound)) Hz"))
        return nil
    }
    do {
        let paths = try BundlePresets.paths(bundle: String(cString: bundle))
        return Unmanaged.passRetained(PluginEngine(presetPaths: paths, rate: rate)).toOpaque()
    } catch {
        report(error)
        return nil
    }
}

@_cdecl("clumsy_engine_activate")
public func clumsyEngineActivate(_ engine: UnsafeMutableRawPointer, _ controls: UnsafePointer<ClumsyControls>) -> Int32 {
    do {
        try from(engine).activate(PluginControls(controls.pointee))
        return 0
    } catch {
        report(error)
        return error.exitStatus
    }
}

@_cdecl("clumsy_engine_transport")
public func clumsyEngineTransport(_ engine: UnsafeMutableRawPointer, _ offset: UInt32, _ transport: UnsafePointer<ClumsyTransport>) {
    from(engine).transport(HostPosition(transport.pointee), at: offset)
}

@_cdecl("clumsy_engine_controls")
public func clumsyEngineControls(_ engine: UnsafeMutableRawPointer, _ controls: UnsafePointer<ClumsyControls>) {
    from(engine).controls(PluginControls(controls.pointee))
}

@_cdecl("clumsy_engine_midi")
public func clumsyEngineMIDI(_ engine: UnsafeMutableRawPointer, _ offset: UInt32, _ bytes: UnsafePointer<UInt8>, _ size: UInt32) {
    guard size >= 3 else { return }
    from(engine).midi(status: bytes[0], data1: bytes[1], data2: bytes[2], at: offset)
}

/// The choices' texts, made once (not on the audio thread: the bundle tool asks).
nonisolated(unsafe) private let choiceTexts: [String: UnsafeMutablePointer<CChar>] = {
    var texts: [String: UnsafeMutablePointer<CChar>] = [:]
    for port in ["key", "mode", "quantize"] { texts[port] = strdup(PortChoices.text(of: port)!) }
    return texts
}()

/// `text` as a Turtle string literal (`Escape.turtle`), for the bundle tool (Tools/lv2bundle.py),
/// which writes the plugin's Turtle with every label and preset name through it. The copy is
/// the caller's (a build tool that exits soon after: it is never freed).
@_cdecl("clumsy_turtle_string")
public func clumsyTurtleString(_ text: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>? {
    strdup(Escape.turtle(String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)))
}

@_cdecl("clumsy_port_choices")
public func clumsyPortChoices(_ port: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
    choiceTexts[String(cString: port)].map { UnsafePointer($0) }
}

@_cdecl("clumsy_engine_process")
public func clumsyEngineProcess(_ engine: UnsafeMutableRawPointer, _ offset: UInt32, _ frames: UInt32,
                                _ out: UnsafeMutablePointer<ClumsyMIDI>, _ capacity: UInt32) -> UInt32 {
    UInt32(from(engine).process(offset: offset, count: frames, into: out, capacity: Int(capacity)))
}

@_cdecl("clumsy_engine_take_seek")
public func clumsyEngineTakeSeek(_ engine: UnsafeMutableRawPointer, _ seek: UnsafeMutablePointer<ClumsySeek>) -> Int32 {
    guard let taken = from(engine).takeSeek() else { return 0 }
    seek.pointee = ClumsySeek(beats: taken.beats, bpm: taken.bpm, controls: taken.controls.c)
    return 1
}

@_cdecl("clumsy_engine_prepare")
public func clumsyEnginePrepare(_ engine: UnsafeMutableRawPointer, _ seek: UnsafePointer<ClumsySeek>) {
    from(engine).prepare(Seek(beats: seek.pointee.beats, bpm: seek.pointee.bpm, controls: PluginControls(seek.pointee.controls)))
}

@_cdecl("clumsy_engine_adopt")
public func clumsyEngineAdopt(_ engine: UnsafeMutableRawPointer) {
    from(engine).adopt()
}

@_cdecl("clumsy_engine_free")
public func clumsyEngineFree(_ engine: UnsafeMutableRawPointer) {
    from(engine).reportDrops()
    Unmanaged<PluginEngine>.fromOpaque(engine).release()
}

private func from(_ engine: UnsafeMutableRawPointer) -> PluginEngine {
    Unmanaged<PluginEngine>.fromOpaque(engine).takeUnretainedValue()
}

/// Writes `error` to stderr (instantiate and the worker: not the audio thread).
func report(_ error: SessionError) {
    let line = "clumsy.lv2: \(error)\n"
    line.withCString { _ = write(2, $0, strlen($0)) }
}

@_cdecl("clumsy_engine_place")
public func clumsyEnginePlace(_ engine: UnsafeMutableRawPointer, _ place: Float) {
    from(engine).place(place)
}

@_cdecl("clumsy_engine_view")
public func clumsyEngineView(_ engine: UnsafeMutableRawPointer, _ open: Int32) {
    from(engine).view(open: open != 0)
}

@_cdecl("clumsy_engine_outputs")
public func clumsyEngineOutputs(_ engine: UnsafeMutableRawPointer, _ outputs: UnsafeMutablePointer<ClumsyOutputs>) {
    outputs.pointee = from(engine).outputs
}

@_cdecl("clumsy_engine_frame")
public func clumsyEngineFrame(_ engine: UnsafeMutableRawPointer, _ frame: UnsafeMutablePointer<ClumsyFrame>) -> Int32 {
    from(engine).fill(frame) ? 1 : 0
}

// The UI's drawing (PluginView), for ui.c.

@_cdecl("clumsy_view_new")
public func clumsyViewNew(_ bundle: UnsafePointer<CChar>) -> UnsafeMutableRawPointer? {
    do {
        let paths = try BundlePresets.paths(bundle: String(cString: bundle))
        return Unmanaged.passRetained(PluginView(presetPaths: paths)).toOpaque()
    } catch {
        report(error)
        return nil
    }
}

@_cdecl("clumsy_view_port")
public func clumsyViewPort(_ view: UnsafeMutableRawPointer, _ index: UInt32, _ value: Float) {
    viewFrom(view).port(Int(index), value)
}

@_cdecl("clumsy_view_frame")
public func clumsyViewFrame(_ view: UnsafeMutableRawPointer, _ frame: UnsafeRawPointer, _ size: UInt32) -> Int32 {
    viewFrom(view).frame(frame, size: Int(size)) ? 1 : 0
}

@_cdecl("clumsy_view_render")
public func clumsyViewRender(_ view: UnsafeMutableRawPointer, _ width: Int32, _ height: Int32,
                             _ pixels: UnsafeMutablePointer<UnsafePointer<UInt8>?>, _ stride: UnsafeMutablePointer<Int32>) -> Int32 {
    guard let canvas = viewFrom(view).render(width: Int(width), height: Int(height)), let address = canvas.pixelAddress else { return 1 }
    pixels.pointee = address
    stride.pointee = Int32(canvas.stride)
    return 0
}

@_cdecl("clumsy_view_place")
public func clumsyViewPlace(_ view: UnsafeMutableRawPointer, _ x: Double, _ y: Double, _ place: UnsafeMutablePointer<Float>) -> Int32 {
    guard let value = viewFrom(view).place(x: x, y: y) else { return 0 }
    place.pointee = value
    return 1
}

@_cdecl("clumsy_view_free")
public func clumsyViewFree(_ view: UnsafeMutableRawPointer) {
    Unmanaged<PluginView>.fromOpaque(view).release()
}

private func viewFrom(_ view: UnsafeMutableRawPointer) -> PluginView {
    Unmanaged<PluginView>.fromOpaque(view).takeUnretainedValue()
}
