// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import Testing

@Suite("Tempo map")
struct TempoMapTests {
    @Test("without tempo events the default is 120 bpm")
    func defaultTempo() {
        let map = MIDITempoMap(ticksPerQuarter: 480, events: [])
        #expect(map.seconds(atTick: 0) == 0)
        #expect(map.seconds(atTick: 480) == 0.5)
        #expect(map.seconds(atTick: 48_000) == 50)
        #expect(map.microsecondsPerQuarter(atTick: 12345) == 500_000)
    }

    @Test("tempo changes apply from their tick on; the last of several at one tick wins")
    func changes() {
        let events = [
            MIDIEvent(tick: 1920, message: .tempo(microsecondsPerQuarter: 999)),
            MIDIEvent(tick: 1920, message: .tempo(microsecondsPerQuarter: 1_000_000)), // 60 bpm from 1 s
            MIDIEvent(tick: 0, message: .trackName("conductor")),
            MIDIEvent(tick: 3840, message: .tempo(microsecondsPerQuarter: 250_000)),   // 240 bpm from 3 s
        ]
        let map = MIDITempoMap(ticksPerQuarter: 960, events: events)
        #expect(map.seconds(atTick: 960) == 0.5)
        #expect(map.seconds(atTick: 1920) == 1)
        #expect(map.seconds(atTick: 2880) == 2)
        #expect(map.seconds(atTick: 3840) == 3)
        #expect(map.seconds(atTick: 4800) == 3.25)
        #expect(map.microsecondsPerQuarter(atTick: 1919) == 500_000)
        #expect(map.microsecondsPerQuarter(atTick: 1920) == 1_000_000)
        #expect(map.microsecondsPerQuarter(atTick: 100_000) == 250_000)
    }

    @Test("a tempo at tick 0 replaces the default; contents use track 0's tempo map")
    func contentsTempo() {
        let contents = MIDIFileContents(format: 1, ticksPerQuarter: 100, tracks: [
            [MIDIEvent(tick: 0, message: .tempo(microsecondsPerQuarter: 2_000_000))],
            [MIDIEvent(tick: 0, message: .tempo(microsecondsPerQuarter: 1))], // ignored: not track 0
        ])
        #expect(contents.seconds(atTick: 100) == 2)
        #expect(contents.tempoMap.seconds(atTick: 250) == 5)
    }
}
