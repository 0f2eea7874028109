// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Live
import Studio
import TestSupport
import Testing
@testable import Engine

/// The `level` control: a voice's channel volume (CC7) from OSC, a log or a scene.
@Suite struct LevelControlTests {
    @Test("/clumsy/level over OSC: a voice's name and a whole 0…127; anything else refused with what is accepted")
    func levelOverOSC() {
        let good = OSCControlSource.interpret(OSCMessage(path: "/clumsy/level", arguments: [.string("keys"), .int(64)]))
        #expect(good == .success(.level(voice: "keys", value: 64)))
        let bad: [[OSCValue]] = [[.string("keys"), .int(128)], [.string("keys"), .float(6.5)], [.int(3), .int(60)], [.string("keys")], [.string(""), .int(3)]]
        for arguments in bad {
            guard case .failure(let rejection) = OSCControlSource.interpret(OSCMessage(path: "/clumsy/level", arguments: arguments)) else {
                Issue.record("accepted \(arguments)")
                continue
            }
            let text = rejection.description
            #expect(text.hasPrefix("OSC /clumsy/level") && (text.contains("0…127") || text.contains("a string and a number") || text.contains("voice's name")), "\(text)")
        }
    }

    @Test("A session refuses a level for a voice it does not have, naming its voices; its own are accepted")
    func voicesOfTheSession() throws {
        let plan = SessionPlan(configuration: try Configuration(preset: try bundled("harmonies"), duration: 1))
        let names = plan.voices.ids.map { plan.voices[$0].logName }
        for name in names { #expect(plan.rejection(of: .level(voice: name, value: 10)) == nil, "\(name)") }
        let rejection = try #require(plan.rejection(of: .level(voice: "drums", value: 10)))
        #expect(rejection.description.contains("no voice \"drums\"") && rejection.description.contains(names.joined(separator: ", ")), "\(rejection)")
    }
}
