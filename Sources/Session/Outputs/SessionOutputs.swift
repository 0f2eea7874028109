// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
/// The table of output kinds. `SessionRunner.run` checks, opens and summarises the outputs a
/// request asks for by iterating it, in this order (which is also the order of the summary's
/// "wrote …" and of the sinks); `clumsy run` and `clumsy replay` validate their flags with it.
/// A new output is one file with its `SessionOutput` value, and one row here.
public enum SessionOutputs {
    static let table: [any SessionOutput] = [
        MIDIOutput(),
        EventLogOutput(),
        ClockInOutput(),
        TransportOutput(),
        LinkOutput(),
        LivePortsOutput(),
        OSCOutput(),
        MIDIInOutput(),
        AudioOutput(),
        VideoOutput(),
        StemsOutput(),
        ScoreOutput(),
        LiveSoundOutput(),
        TextViewOutput(),
        LiveStatusOutput(),
    ]

    /// Every flag of every output, in table order.
    public static var flags: [String] { table.flatMap(\.flags) }

    /// The outputs `request` asks for, in table order.
    static func requested(_ request: RunRequest) -> [any SessionOutput] { table.filter { $0.isRequested(request) } }

    /// True when the request writes any file of the user's (no text view then; progress on a terminal).
    static func writesFiles(_ request: RunRequest) -> Bool { table.contains { $0.writesFiles(request) } }

    /// Checks every output's flags in `request` (values and combinations), in table order.
    /// - Throws: `SessionError.usage` with the first problem found.
    public static func validate(_ request: RunRequest) throws(SessionError) {
        for output in table { try output.validate(request) }
    }
}
