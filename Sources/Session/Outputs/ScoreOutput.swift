// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Sinks

/// `--score file.ly`: the session as a LilyPond score (`ScoreWriter`).
struct ScoreOutput: SingleFileOutput {
    let flag = "--score"

    func validate(_ request: RunRequest) throws(SessionError) {
        try requireName(request)
        guard let path = path(request) else { return }
        guard path.lowercased().hasSuffix(".ly"), !OutputName.isOnlyExtension(path) else {
            throw .usage(OutputName.extensionProblem(path, flag: flag, accepted: ".ly"))
        }
    }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let path = path(run.request) else { return }
        wiring.sinks.append(try ScoreWriter(path: path, plan: run.plan))
    }
}
