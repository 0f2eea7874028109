// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile
import Text
import Theory

/// A chord a Clumsy session played, as its MIDI file marks it: a marker (FF 06) on the
/// conductor track, named as the session named it ("E7", "F♯m7"), sounding until the next.
public struct MarkedChord: Sendable, Hashable {
    /// The marker's tick.
    public var startTick: UInt64
    /// Start in seconds from the beginning of the file (following its tempo changes).
    public var start: Double
    /// End in seconds: the next marker's start, the last one's the end of the file.
    public var end: Double
    /// The chord symbol as the session spelled it.
    public var name: String

    /// Length in seconds.
    public var duration: Double { end - start }

    /// The chord markers of a file Clumsy wrote (its first track opens with a text event
    /// "Clumsy …"), in time order, the last until `end`; empty for any other file, whose
    /// markers may mean anything.
    static func marks(in contents: MIDIFileContents, tempo: MIDITempoMap, end: UInt64) -> [MarkedChord] {
        guard let conductor = contents.tracks.first,
              conductor.contains(where: { if case .text(let text) = $0.message { text.hasPrefix(Clumsy.name + " ") } else { false } })
        else { return [] }
        var marks: [MarkedChord] = []
        for event in conductor {
            guard case .marker(let name) = event.message else { continue }
            let start = tempo.seconds(atTick: event.tick)
            if !marks.isEmpty { marks[marks.count - 1].end = start }
            // Written in ASCII ("Bbmaj7") since 0.2; shown with music symbols, as the session named it.
            marks.append(MarkedChord(startTick: event.tick, start: start, end: start, name: ChordSymbol.shown(name)))
        }
        if !marks.isEmpty { marks[marks.count - 1].end = max(marks[marks.count - 1].start, tempo.seconds(atTick: end)) }
        return marks
    }
}
