// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Presets
import Studio
import TestSupport
import Testing
@testable import Engine
@testable import Live

/// `--osc-out`'s `/clumsy/control`: what a listener reads for each kind of control.
@Suite("OSC out: controls")
struct OSCOutTests {
    @Test("/clumsy/control carries the control's number when it has one, and its name alone for kick, drop and lift")
    func controlArguments() throws {
        let socket = try UDPReader()
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load("default"), duration: 1))
        let sink = try OSCOutSink(target: socket.target, plan: plan)
        let controls: [Control] = [.gravity(3.5), .drop, .tempo(96), .kick, .lift, .balls(7)]
        try sink.record(controls.map { .live(time: 0.5, step: 120, control: $0) }, through: 0.5)
        let sent = socket.messages().filter { $0.path == "/clumsy/control" }.map(\.arguments)
        #expect(sent == [
            [.string("gravity"), .float(3.5)], [.string("drop")], [.string("tempo"), .float(96)],
            [.string("kick")], [.string("lift")], [.string("balls"), .float(7)],
        ])
    }
}
