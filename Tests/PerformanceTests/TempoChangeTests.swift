// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
import Theory
import Vocabulary
@testable import Performance

/// A live tempo change and the notes queued across it (a master's new tempo, `/clumsy/tempo`).
@Suite("Notes queued across a tempo change keep their place in the bar")
struct TempoChangeTests {
    @Test("a note queued for beat 3 at 120 bpm sounds on beat 3 at 90; one due before the change keeps its time; the order holds")
    func queuedNotesKeepTheirBeat() {
        var scheduler = Scheduler(voices: cMajorVoices(), clock: Clock(tempo: 120, grid: Grid("1/4")!), feel: Feel(downbeatAccent: 0, strongAccent: 0))
        // Hits at 0.1 s and 0.6 s: placed on beats 2 (0.5 s) and 3 (1.0 s) at 120 bpm.
        for (hit, pitch) in [(0.1, 60), (0.6, 64)] {
            scheduler.schedule(SchedulerTests.note(hit, pitch, 80), at: scheduler.place(hit))
        }
        var delivered: [ScheduledEvent] = []
        scheduler.deliver(through: 0.5, into: &delivered)
        let early = delivered.compactMap(\.note)
        #expect(early.filter { $0.kind == .on }.map(\.time) == [0.5])
        // At 0.75 s (beat 2.5), the tempo becomes 90: beat 3 is a third of a second on.
        scheduler.changeTempo(to: 90, at: 0.75)
        delivered.removeAll()
        scheduler.deliver(through: 10, into: &delivered)
        let later = delivered.compactMap(\.note)
        let on = later.first { $0.kind == .on && $0.note == 64 }
        let beat3 = 0.75 + 0.5 * 60 / 90
        #expect(on.map { abs($0.time - beat3) < 1e-9 } == true, "\(String(describing: on?.time)), beat 3 at \(beat3)")
        #expect(scheduler.clock.beatInBar(at: beat3) == 2, "beat 3 at the new tempo is not on the clock's beat")
        #expect(later.map(\.time) == later.map(\.time).sorted(), "delivered out of order: \(later.map(\.time))")
        // Lengths are seconds: the sounding note's off keeps its time, the moved note's is its length on.
        let offs = Dictionary(later.filter { $0.kind == .off }.map { ($0.note, $0.time) }, uniquingKeysWith: min)
        #expect(offs[60].map { abs($0 - 1.0) < 1e-9 } == true, "the sounding note's off moved: \(String(describing: offs[60]))")
        #expect(offs[64].map { abs($0 - (beat3 + 0.5)) < 1e-9 } == true, "the moved note's off: \(String(describing: offs[64]))")
    }
}
