// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Converts ticks to seconds across tempo changes.
///
/// Before the first tempo event the tempo is the MIDI default of 500000 µs
/// per quarter note (120 beats per minute). When several tempo events share
/// a tick, the last one wins.
public struct MIDITempoMap: Sendable, Equatable {
    /// The MIDI default tempo in microseconds per quarter note (120 bpm).
    public static let defaultMicrosecondsPerQuarter: UInt32 = 500_000

    /// A stretch of constant tempo starting at `tick` (`seconds` from the start).
    struct Segment: Sendable, Equatable {
        var tick: UInt64
        var seconds: Double
        var microsecondsPerQuarter: UInt32
    }

    /// Time resolution in ticks per quarter note.
    public let ticksPerQuarter: UInt16
    private var segments: [Segment]

    /// Builds the map from the `.tempo` events among `events` (other events
    /// are ignored; events need not be sorted). `ticksPerQuarter` must be > 0 (precondition).
    public init(ticksPerQuarter: UInt16, events: some Sequence<MIDIEvent>) {
        precondition(ticksPerQuarter > 0, "ticks per quarter must be positive")
        self.ticksPerQuarter = ticksPerQuarter
        var changes: [(tick: UInt64, order: Int, tempo: UInt32)] = []
        for (order, event) in events.enumerated() {
            if case .tempo(let tempo) = event.message { changes.append((event.tick, order, tempo)) }
        }
        changes.sort { ($0.tick, $0.order) < ($1.tick, $1.order) }
        var segments = [Segment(tick: 0, seconds: 0, microsecondsPerQuarter: MIDITempoMap.defaultMicrosecondsPerQuarter)]
        let ticksPerQuarterValue = Double(ticksPerQuarter)
        for change in changes {
            let last = segments[segments.count - 1]
            if change.tick == last.tick {
                segments[segments.count - 1].microsecondsPerQuarter = change.tempo
            } else {
                let elapsed = Double(change.tick - last.tick) * Double(last.microsecondsPerQuarter) / 1_000_000 / ticksPerQuarterValue
                segments.append(Segment(tick: change.tick, seconds: last.seconds + elapsed, microsecondsPerQuarter: change.tempo))
            }
        }
        self.segments = segments
    }

    /// Time in seconds from tick 0 to `tick`.
    public func seconds(atTick tick: UInt64) -> Double {
        let segment = segments[segmentIndex(containing: tick)]
        return segment.seconds + Double(tick - segment.tick) * Double(segment.microsecondsPerQuarter) / 1_000_000 / Double(ticksPerQuarter)
    }

    /// The tempo in effect at `tick`, in microseconds per quarter note.
    public func microsecondsPerQuarter(atTick tick: UInt64) -> UInt32 {
        segments[segmentIndex(containing: tick)].microsecondsPerQuarter
    }

    /// Index of the last segment starting at or before `tick` (binary search).
    private func segmentIndex(containing tick: UInt64) -> Int {
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].tick <= tick { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
