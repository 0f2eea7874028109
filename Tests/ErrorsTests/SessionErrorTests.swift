// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Testing

/// Every way a session can fail maps to one sysexits.h status, and says its message.
@Suite("Session errors")
struct SessionErrorTests {
    @Test("Each case has its sysexits.h status")
    func statuses() {
        let cases: [(SessionError, Int32)] = [
            (.usage("u"), 64), (.preset(file: "f", field: "x", message: "m"), 65), (.data("d"), 65), (.noInput("n"), 66),
            (.unavailable("a"), 69), (.software("s"), 70), (.cannotCreate("c"), 73), (.io("i"), 74),
        ]
        for (error, status) in cases { #expect(error.exitStatus == status, "\(error)") }
        // No status of a signal (128 + n) and none of success.
        #expect(cases.allSatisfy { $0.0.exitStatus > 0 && $0.0.exitStatus < 128 })
    }

    @Test("A preset error names the file, then the field when there is one, then what is wrong")
    func messages() {
        #expect(SessionError.preset(file: "my.json", field: "world.gravity", message: "must be 0…100").description
                == "my.json: world.gravity: must be 0…100")
        #expect(SessionError.preset(file: "my.json", field: "", message: "is not JSON").description == "my.json: is not JSON")
        #expect(SessionError.io("disk full").description == "disk full")
        #expect(SessionError.usage("--speed nan").description == "--speed nan")
    }
}
