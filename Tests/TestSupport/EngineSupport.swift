// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Presets
@testable import Engine

/// Keeps every event a session produced.
public final class CollectingSink: SessionSink {
    public var events: [SessionEvent] = []
    public var finishedAt: Double?
    public var abandoned = false
    public init() {}
    public func record(_ events: [SessionEvent], through time: Double) throws(SessionError) { self.events += events }
    public func finish(at time: Double) throws(SessionError) { finishedAt = time }
    public func abandon() { abandoned = true }
}

/// Decodes preset JSON text.
public func decode(_ text: String, file: String = "test.json") throws(SessionError) -> Preset {
    try Preset.decode(Array(text.utf8), file: file, defaultName: "test")
}

/// The error decoding `text` and resolving it gives, or nil.
public func presetError(_ text: String) -> SessionError? {
    do {
        let preset = try decode(text)
        _ = try Configuration(preset: preset, duration: 1)
        return nil
    } catch {
        return error
    }
}

/// Runs `preset` for `duration` seconds and returns the events.
public func simulate(_ preset: Preset, duration: Double, overrides: Overrides = Overrides()) throws -> (events: [SessionEvent], summary: Summary) {
    let configuration = try Configuration(preset: preset, overrides: overrides, duration: duration)
    let sink = CollectingSink()
    let summary = try Simulator(configuration: configuration).run(into: [sink])
    return (sink.events, summary)
}

/// A bundled preset by name.
public func bundled(_ name: String) throws -> Preset { try PresetLibrary.load(name) }
