// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import EventLog
import Sinks
/// `--midi file.mid`: the Standard MIDI File (`MIDIRecorder`).
struct MIDIOutput: SingleFileOutput {
    let flag = "--midi"

    func validate(_ request: RunRequest) throws(SessionError) { try requireName(request) }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let path = path(run.request) else { return }
        wiring.sinks.append(try MIDIRecorder(path: path, plan: run.plan))
    }
}

/// `--events file.jsonl`: the event log (`EventLogWriter`); a live run's opens with the
/// `session` line that `clumsy replay` reads.
struct EventLogOutput: SingleFileOutput {
    let flag = "--events"

    func validate(_ request: RunRequest) throws(SessionError) { try requireName(request) }

    func open(_ run: OutputRun, _ wiring: OutputWiring) throws(SessionError) {
        guard let path = path(run.request) else { return }
        let plan = run.plan
        var replay = run.request.replay
        replay?.seed = plan.seed
        replay?.timestep = plan.world.timestep
        replay?.presetName = plan.name
        if let arguments = replay?.arguments, !arguments.contains("--seed") {
            replay?.arguments += ["--seed", String(plan.seed)]
        }
        if let arguments = replay?.arguments {
            replay?.plan = try PlanDigest.of(presetPath: run.plan.source, arguments: arguments, timestep: plan.world.timestep)
        }
        wiring.sinks.append(try EventLogWriter(path: path, voices: plan.voices, replay: replay, isLive: run.request.isLive))
    }
}
