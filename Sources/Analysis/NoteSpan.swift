// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import MIDIFile

/// One sounded note read from a MIDI file: from its note on to its note off, in ticks.
public struct NoteSpan: Sendable, Hashable {
    /// Track index (0-based, file order).
    public var track: Int
    /// MIDI channel 0…15 (9 is General MIDI percussion).
    public var channel: Int
    /// MIDI note number 0…127.
    public var note: Int
    /// Note-on velocity 1…127.
    public var velocity: Int
    /// Tick of the note on.
    public var start: UInt64
    /// Tick of the note off (≥ start).
    public var end: UInt64

    /// Creates a span.
    public init(track: Int, channel: Int, note: Int, velocity: Int, start: UInt64, end: UInt64) {
        self.track = track
        self.channel = channel
        self.note = note
        self.velocity = velocity
        self.start = start
        self.end = end
    }

    /// Whether it is on the General MIDI percussion channel (MIDI channel 10), which has no pitch.
    public var isPercussion: Bool { channel == 9 }

    /// Pairs note ons with note offs in each track. A note on with velocity 0 is a note off; a note
    /// off ends the earliest sounding note of its channel and number; a note off with nothing
    /// sounding is ignored; a note still sounding at the end of its track ends at `fileEnd`.
    public static func spans(in contents: MIDIFileContents, fileEnd: UInt64) -> [NoteSpan] {
        var result: [NoteSpan] = []
        for (index, events) in contents.tracks.enumerated() {
            if StopSignal.process.isRaised { return [] }   // the caller exits 128 + signal
            var sounding: [Int: [(tick: UInt64, velocity: Int)]] = [:]
            for event in events {
                let channel: UInt8, note: UInt8, velocity: UInt8
                switch event.message {
                case .noteOn(let c, let n, let v): (channel, note, velocity) = (c, n, v)
                case .noteOff(let c, let n, _): (channel, note, velocity) = (c, n, 0)
                default: continue
                }
                let key = Int(channel) * 128 + Int(note)
                if velocity > 0 {
                    sounding[key, default: []].append((event.tick, Int(velocity)))
                } else if var open = sounding[key], !open.isEmpty {
                    let first = open.removeFirst()
                    sounding[key] = open
                    result.append(NoteSpan(track: index, channel: Int(channel), note: Int(note), velocity: first.velocity,
                                           start: first.tick, end: max(first.tick, event.tick)))
                }
            }
            for (key, open) in sounding.sorted(by: { $0.key < $1.key }) {
                for entry in open {
                    result.append(NoteSpan(track: index, channel: key / 128, note: key % 128, velocity: entry.velocity,
                                           start: entry.tick, end: max(entry.tick, fileEnd)))
                }
            }
        }
        // By start, track, channel, note; compared field by field (a tuple comparison costs a
        // type-metadata lookup per call in a debug build: a third of `analyze` on big files).
        return result.sorted { a, b in
            if a.start != b.start { return a.start < b.start }
            if a.track != b.track { return a.track < b.track }
            if a.channel != b.channel { return a.channel < b.channel }
            return a.note < b.note
        }
    }
}

