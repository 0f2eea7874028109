// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
import MIDIFile
import Theory

/// Analyses any Standard MIDI File: its key (Krumhansl–Schmuckler on how long each pitch class sounds),
/// a chord timeline, velocities and tracks. Pure: the same bytes give the same analysis.
///
/// The chord timeline works on windows of one quarter note (rounded up to an even number of ticks;
/// longer for files over 100 000 quarter notes), split in two halves when the whole window's notes
/// leave non-chord tones while each half is one chord, as at a chord change in mid-beat. In each window every pitch class is weighted by how long it sounds there (at most the
/// window, however many octaves double it); pitch classes
/// sounding for more than half as long as the strongest are kept, so a short passing tone does not
/// change the chord. Three or more kept pitch classes are named by `ChordIdentification` (the bass
/// is the lowest kept note); fewer continue the previous chord when they belong to it, else no chord.
/// Equal neighbouring windows merge into one span. Notes on MIDI channel 10 (General MIDI
/// percussion) count in the tracks and velocities but not in the harmony or key.
public enum MIDIAnalyzer {
    /// The most windows a timeline uses; longer files get longer windows.
    public static let maximumWindows: UInt64 = 100_000

    /// Reads and analyses the file at `path`.
    /// - Throws: `.cannotRead` if it cannot be read, `.badData` if it is not a usable MIDI file.
    public static func analyze(path: String) throws(AnalysisError) -> MIDIAnalysis {
        let contents: MIDIFileContents
        do {
            contents = try MIDIFileReader.read(path: path)
        } catch {
            throw AnalysisError(error)
        }
        return analyze(contents)
    }

    /// Reads and analyses the file open on `descriptor` (named `path`; the caller closes it).
    /// - Throws: as `analyze(path:)`.
    public static func analyze(descriptor: Int32, path: String) throws(AnalysisError) -> MIDIAnalysis {
        let contents: MIDIFileContents
        do {
            contents = try MIDIFileReader.read(descriptor: descriptor, path: path)
        } catch {
            throw AnalysisError(error)
        }
        return analyze(contents)
    }

    /// Analyses parsed contents.
    public static func analyze(_ contents: MIDIFileContents) -> MIDIAnalysis {
        let tempo = MIDITempoMap(ticksPerQuarter: contents.ticksPerQuarter, events: contents.tracks.joined())
        let lastEvent = contents.tracks.compactMap { $0.last?.tick }.max() ?? 0
        let notes = NoteSpan.spans(in: contents, fileEnd: lastEvent)
        let end = notes.map(\.end).max() ?? lastEvent

        var histogram = [Int](repeating: 0, count: 8)
        for note in notes { histogram[min(7, (note.velocity - 1) / 16)] += 1 }

        // Each track's notes, gathered in one pass (a file may have 65 535 tracks).
        var byTrack = [[NoteSpan]](repeating: [], count: contents.tracks.count)
        for note in notes { byTrack[note.track].append(note) }
        let tracks = contents.tracks.indices.map { index -> TrackSummary in
            let own = byTrack[index]
            let pitches = own.map(\.note)
            return TrackSummary(index: index, name: contents.trackName(at: index), noteCount: own.count,
                                channels: Array(Set(own.map(\.channel))).sorted(),
                                range: pitches.min().map { $0...pitches.max()! })
        }
        if StopSignal.process.isRaised { return MIDIAnalysis.stopped }

        let pitched = notes.filter { !$0.isPercussion && $0.end > $0.start }
        var durations = [Double](repeating: 0, count: 12)
        for note in pitched {
            durations[note.note % 12] += tempo.seconds(atTick: note.end) - tempo.seconds(atTick: note.start)
        }
        let key = pitched.isEmpty ? nil : KeyEstimate.estimate(durations: durations)

        let quarter = UInt64(contents.ticksPerQuarter)
        let beat = max(quarter, (end + maximumWindows - 1) / maximumWindows)
        let half = (beat + 1) / 2
        let chords = timeline(pitched, end: end, window: half, tempo: tempo)
        if StopSignal.process.isRaised { return MIDIAnalysis.stopped }
        return MIDIAnalysis(format: Int(contents.format), ticksPerQuarter: Int(contents.ticksPerQuarter), tracks: tracks,
                            duration: tempo.seconds(atTick: end), noteCount: notes.count, key: key, chords: chords,
                            markedChords: MarkedChord.marks(in: contents, tempo: tempo, end: end),
                            velocityHistogram: histogram, windowTicks: 2 * half,
                            repetition: Repetition.find(notes, contents: contents))
    }

    /// The chord spans of `notes` over [0, end), judged a beat (two windows of `window` ticks) at a time.
    static func timeline(_ notes: [NoteSpan], end: UInt64, window: UInt64, tempo: MIDITempoMap) -> [ChordSpan] {
        guard end > 0 else { return [] }
        let count = Int((end + window - 1) / window)
        let weight = pitchClassTicks(notes, windows: count, window: window)
        let lowest = lowestNotes(notes, windows: count, window: window)

        // Decide per pair of sub-windows (one beat): the beat as a whole, unless its notes do not fit
        // one chord (non-chord tones left) while each half fits one cleanly, as at a chord change mid-beat.
        var lastKept: [Int] = []
        var lastFound: ChordIdentification?
        func choose(_ subs: [Int], previous: ChordIdentification?) -> ChordIdentification? {
            var weights = [Double](repeating: 0, count: 12)
            var low = [Int](repeating: Int.max, count: 12)
            for sub in subs {
                for pc in 0..<12 {
                    weights[pc] += min(weight[sub * 12 + pc], Double(window))
                    low[pc] = min(low[pc], lowest[sub * 12 + pc])
                }
            }
            let strongest = weights.max() ?? 0
            let kept = (0..<12).filter { strongest > 0 && weights[$0] * 2 > strongest && low[$0] != Int.max }.map { low[$0] }
            if kept.count >= 3 {
                // Held chords repeat window after window: name each set of notes once.
                if kept != lastKept {
                    lastKept = kept
                    lastFound = ChordIdentification.identify(kept)
                }
                return lastFound
            }
            if let previous, !kept.isEmpty, kept.allSatisfy({ previous.chord.tones.contains(PitchClass($0)) }) { return previous }
            return nil
        }
        var spans: [ChordSpan] = []
        var previous: ChordIdentification?
        func append(_ found: ChordIdentification?, from startTick: UInt64, to endTick: UInt64) {
            if let last = spans.last, last.identification == found {
                spans[spans.count - 1].endTick = endTick
                spans[spans.count - 1].end = tempo.seconds(atTick: endTick)
            } else {
                spans.append(ChordSpan(startTick: startTick, endTick: endTick, start: tempo.seconds(atTick: startTick),
                                       end: tempo.seconds(atTick: endTick), identification: found))
            }
        }
        var beat = 0
        while beat * 2 < count {
            let subs = Array((beat * 2)..<min(count, beat * 2 + 2))
            let whole = choose(subs, previous: previous)
            if subs.count == 2, whole == nil || !(whole!.extraTones.isEmpty && whole!.missingTones.isEmpty) {
                let first = choose([subs[0]], previous: previous)
                let second = choose([subs[1]], previous: first)
                if let first, let second, first != second, first.extraTones.isEmpty, second.extraTones.isEmpty {
                    append(first, from: UInt64(subs[0]) * window, to: UInt64(subs[1]) * window)
                    append(second, from: UInt64(subs[1]) * window, to: min(end, UInt64(subs[1] + 1) * window))
                    previous = second
                    beat += 1
                    continue
                }
            }
            append(whole, from: UInt64(subs[0]) * window, to: min(end, UInt64(subs.last! + 1) * window))
            previous = whole
            beat += 1
        }
        return spans
    }

    /// weight[w * 12 + pc]: the ticks pitch class pc sounds in window w. Windows a note covers
    /// in full are added through a difference array, so a long note costs two entries.
    static func pitchClassTicks(_ notes: [NoteSpan], windows count: Int, window: UInt64) -> [Double] {
        var weight = [Double](repeating: 0, count: count * 12)
        var fullStarts = [Int](repeating: 0, count: (count + 1) * 12)
        for note in notes {
            let pc = note.note % 12
            let first = Int(note.start / window)
            let last = Int((note.end - 1) / window)
            if first == last {
                weight[first * 12 + pc] += Double(note.end - note.start)
            } else {
                weight[first * 12 + pc] += Double(UInt64(first + 1) * window - note.start)
                weight[last * 12 + pc] += Double(note.end - UInt64(last) * window)
                if last > first + 1 {
                    fullStarts[(first + 1) * 12 + pc] += 1
                    fullStarts[last * 12 + pc] -= 1
                }
            }
        }
        var running = [Int](repeating: 0, count: 12)
        for w in 0..<count {
            for pc in 0..<12 {
                running[pc] += fullStarts[w * 12 + pc]
                weight[w * 12 + pc] += Double(running[pc]) * Double(window)
            }
        }
        return weight
    }

    /// lowest[w * 12 + pc]: the lowest note of pitch class pc sounding in window w (Int.max if
    /// none). Filled lowest note first, each window once per pitch class: a union-find over
    /// the windows still free skips those already filled.
    static func lowestNotes(_ notes: [NoteSpan], windows count: Int, window: UInt64) -> [Int] {
        var lowest = [Int](repeating: Int.max, count: count * 12)
        var nextFree = (0..<12).map { _ in Array(0...count) }
        func find(_ pc: Int, _ w: Int) -> Int {
            var root = w
            while nextFree[pc][root] != root { root = nextFree[pc][root] }
            var walk = w
            while nextFree[pc][walk] != root {
                let next = nextFree[pc][walk]
                nextFree[pc][walk] = root
                walk = next
            }
            return root
        }
        for note in notes.sorted(by: { $0.note < $1.note }) {
            let pc = note.note % 12
            var w = find(pc, Int(note.start / window))
            let last = Int((note.end - 1) / window)
            while w <= last {
                lowest[w * 12 + pc] = note.note
                nextFree[pc][w] = w + 1
                w = find(pc, w + 1)
            }
        }
        return lowest
    }
}
