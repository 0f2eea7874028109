// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile

/// Which bars and four-bar spans of a MIDI file recur, so a user can see its form.
///
/// Bars come from the file's first time signature (4/4 without one) and its ticks per quarter.
/// A bar's content is the set of its pitched note-ons, each as (sixteenth of the bar, pitch);
/// drums (MIDI channel 10) aside. A bar recurs when it and an earlier bar share at least 80 % of
/// the note-ons of each (of the fuller of the two); a bar without note-ons never recurs. A four-bar span (starting at any bar) recurs
/// when an earlier span's four bars match it bar for bar in that sense.
public struct Repetition: Sendable, Equatable {
    /// A bar (or span) and the earliest earlier one it repeats, both numbered from 1.
    public struct Match: Sendable, Equatable {
        /// The bar, or the span's first bar.
        public var bar: Int
        /// The earlier bar (or span's first bar) it repeats.
        public var earlier: Int
    }

    /// A run of recurring four-bar spans that repeat one earlier passage: bars `start…end`
    /// repeat bars `earlier…earlier + end − start`.
    public struct Passage: Sendable, Equatable {
        /// First bar (from 1).
        public var start: Int
        /// Last bar.
        public var end: Int
        /// First bar of the passage it repeats.
        public var earlier: Int
    }

    /// The shared fraction that makes two bars the same.
    public static let threshold = 0.8
    /// Bars beyond this many are not compared (a very long file), to bound the time.
    public static let maximumBars = 4000

    /// Ticks in a bar.
    public var barTicks: UInt64
    /// Bars compared (through the last note-on's bar).
    public var bars: Int
    /// The recurring bars, in order.
    public var recurringBars: [Match]
    /// Four-bar spans compared (`bars − 3`, at least 0).
    public var spans: Int
    /// The recurring four-bar spans, in order.
    public var recurringSpans: [Match]
    /// The recurring spans gathered into passages.
    public var passages: [Passage]

    /// Fraction of bars that recur (0 without bars).
    public var barFraction: Double { bars == 0 ? 0 : Double(recurringBars.count) / Double(bars) }
    /// Fraction of four-bar spans that recur.
    public var spanFraction: Double { spans == 0 ? 0 : Double(recurringSpans.count) / Double(spans) }

    /// The repetition of `notes` in a file with `contents`' time signature and resolution.
    public static func find(_ notes: [NoteSpan], contents: MIDIFileContents) -> Repetition {
        let quarter = UInt64(max(1, contents.ticksPerQuarter))
        var numerator: UInt64 = 4, denominatorPower: UInt64 = 2
        if let signature = contents.tracks.joined().sorted(by: { $0.tick < $1.tick }).lazy.compactMap({ event -> (UInt8, UInt8)? in
            if case .timeSignature(let n, let d, _, _) = event.message { return (n, d) }
            return nil
        }).first, signature.0 > 0, signature.1 <= 6 {
            numerator = UInt64(signature.0)
            denominatorPower = UInt64(signature.1)
        }
        let barTicks = max(1, (quarter * 4 * numerator) >> denominatorPower)
        let sixteenth = max(1, quarter / 4)
        let pitched = notes.filter { !$0.isPercussion }
        let count = min(maximumBars, pitched.map { Int($0.start / barTicks) + 1 }.max() ?? 0)
        var onsets = [Set<Int>](repeating: [], count: count)
        for note in pitched where note.start / barTicks < UInt64(count) {
            let bar = Int(note.start / barTicks)
            let position = Int((note.start - UInt64(bar) * barTicks) / sixteenth)
            onsets[bar].insert(position * 128 + note.note)
        }
        return Repetition(barTicks: barTicks, bars: onsets)
    }

    /// Compares every bar with every earlier bar.
    init(barTicks: UInt64, bars contents: [Set<Int>]) {
        self.barTicks = barTicks
        bars = contents.count
        // same[i] = earlier bars j that bar i repeats.
        var same = [[Int]](repeating: [], count: bars)
        for i in contents.indices where !contents[i].isEmpty {
            let count = Double(contents[i].count)
            for j in 0..<i where Double(contents[j].count) * Repetition.threshold <= count + 1e-9
                && count * Repetition.threshold <= Double(contents[j].count) + 1e-9
                && Double(contents[i].intersection(contents[j]).count)
                    >= Repetition.threshold * Double(max(contents[i].count, contents[j].count)) - 1e-9 {
                same[i].append(j)
            }
        }
        recurringBars = same.indices.compactMap { i in same[i].first.map { Match(bar: i + 1, earlier: $0 + 1) } }
        spans = max(0, bars - 3)
        let sets = same.map(Set.init)
        var found: [Match] = []
        var passages: [Passage] = []
        for start in 0..<spans {
            let candidates = same[start].filter { j in (1...3).allSatisfy { sets[start + $0].contains(j + $0) } }
            guard let first = candidates.first else { continue }
            // Keep the passage going when the span goes on repeating the same one.
            if let last = passages.last, last.end >= start + 3, candidates.contains(last.earlier + start - last.start) {
                passages[passages.count - 1].end = start + 4
                found.append(Match(bar: start + 1, earlier: last.earlier + start - last.start + 1))
            } else {
                found.append(Match(bar: start + 1, earlier: first + 1))
                passages.append(Passage(start: start + 1, end: start + 4, earlier: first + 1))
            }
        }
        recurringSpans = found
        self.passages = passages
    }
}
