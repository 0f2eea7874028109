// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import EventLog
import Performance
import Theory
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// The one-line status `--live` shows on a terminal, a few times a second: session time,
/// bar and beat, the chord and key playing, notes per second and the CPU the process uses.
package final class LiveStatus: SessionSink {
    private let output: TerminalOutput
    private var clock: Clock
    private var key: Key
    private var chord: ChordEvent?
    /// Note-on times of the last second, for notes per second.
    private var recent: [Double] = []
    private var shownAt = -Double.infinity
    private var cpu = (wall: WallClockPacer.now(), used: LiveStatus.cpuSeconds())
    private var load = 0.0

    /// Simulated seconds between refreshes (paced to the wall clock live).
    static let interval = 0.25

    package init(output: TerminalOutput, plan: SessionPlan) {
        self.output = output
        clock = plan.clock
        key = plan.key
    }

    package func record(_ events: [SessionEvent], through time: Double) throws(SessionError) {
        for event in events {
            switch event {
            case .note(let note) where note.kind == .on:
                recent.append(note.time)
            case .chord(let event):
                chord = event
                key = event.key
            case .live(let at, _, .tempo(let bpm)):
                clock.changeTempo(to: bpm, at: at)
            default:
                break
            }
        }
        guard time - shownAt >= Self.interval else { return }
        shownAt = time
        recent.removeAll { $0 <= time - 1 }
        output.write("\r\u{1B}[K" + line(at: time))
        output.flush()
    }

    /// The status at `time`, e.g. "live 0:42  bar 22:3  Fmaj7 (IV) in C major  14 notes/s  CPU 18%".
    func line(at time: Double) -> String {
        let shifted = time + clock.shift
        let bar = Int(shifted / clock.barSeconds) + 1
        let beat = Int(shifted.truncatingRemainder(dividingBy: clock.barSeconds) / clock.beatSeconds) + 1
        let chord = self.chord.map { "\($0.name) (\($0.numeral))" } ?? "–"
        let now = WallClockPacer.now(), used = Self.cpuSeconds()
        if now - cpu.wall >= 1 {
            load = (used - cpu.used) / (now - cpu.wall)
            cpu = (now, used)
        }
        return "  live \(ProgressLine.clock(time))  bar \(bar):\(beat)  \(chord) in \(key.description)  "
            + "\(recent.count) notes/s  CPU \(Int((load * 100).rounded()))%"
    }

    /// CPU seconds this process has used (user and system, every thread).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
    }

    package func finish(at time: Double) throws(SessionError) {
        output.write("\r\u{1B}[K")
        output.flush()
    }

    package func abandon() {
        output.write("\r\u{1B}[K")
        output.flush()
    }
}
