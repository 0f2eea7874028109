// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Theory

/// What `clumsy analyze` finds in a MIDI file: key, chord timeline, time per chord and degree,
/// velocities and tracks.
public struct MIDIAnalysis: Sendable {
    /// SMF format 0, 1 or 2.
    public var format: Int
    /// Ticks per quarter note.
    public var ticksPerQuarter: Int
    /// Tracks in the file (including a conductor track without notes).
    public var tracks: [TrackSummary]
    /// Seconds from the start to the last note off (or last event).
    public var duration: Double
    /// Notes in all tracks.
    public var noteCount: Int
    /// The key estimate from pitched notes, or nil without any.
    public var key: KeyEstimate?
    /// The chord timeline estimated from the notes, in order, covering the file up to its last note off.
    public var chords: [ChordSpan]
    /// The chords a Clumsy session played, from its file's chord markers (empty for other files).
    public var markedChords: [MarkedChord] = []
    /// Note-on velocities in 8 bins of 16: 1–16, 17–32, …, 113–127.
    public var velocityHistogram: [Int]
    /// Length of the harmonic window in ticks (one quarter note unless the file is very long).
    public var windowTicks: UInt64
    /// Recurring bars and four-bar spans (the form).
    public var repetition = Repetition(barTicks: 1, bars: [])

    /// What an analysis cut short by a stop signal returns (nothing: the caller exits 128 + signal).
    static let stopped = MIDIAnalysis(format: 0, ticksPerQuarter: 1, tracks: [], duration: 0, noteCount: 0, key: nil, chords: [],
                                      velocityHistogram: [], windowTicks: 0)

    /// The key chords and notes are spelled in: the estimate's, else C major.
    public var spellingKey: Key { key?.key ?? Key(tonic: .C, scale: .major) }

    /// True when the chords reported are the session's own (`markedChords`), not an estimate.
    public var hasMarkedChords: Bool { !markedChords.isEmpty }

    /// Seconds each chord symbol sounds, longest first (then by name); no "N.C.". The session's
    /// chords as marked when the file has them, else the estimate's, spelled in `spellingKey`.
    public func timePerChord(style: SpellingStyle = .unicode) -> [(name: String, seconds: Double)] {
        if hasMarkedChords { return sorted(markedChords.map { ($0.name, $0.duration) }) }
        return total { $0.identification == nil ? nil : $0.symbol(in: spellingKey, style: style) }
    }

    /// Seconds each chord root's Roman numeral (triad level) sounds, longest first; no "N.C.".
    public func timePerDegree(style: SpellingStyle = .unicode) -> [(name: String, seconds: Double)] {
        total { $0.identification == nil ? nil : $0.numeral(in: spellingKey, style: style) }
    }

    private func total(_ label: (ChordSpan) -> String?) -> [(name: String, seconds: Double)] {
        sorted(chords.compactMap { span in label(span).map { ($0, span.duration) } })
    }

    /// The seconds of each name summed, longest first (then by name).
    private func sorted(_ spans: [(String, Double)]) -> [(name: String, seconds: Double)] {
        var sums: [String: Double] = [:]
        for (name, seconds) in spans { sums[name, default: 0] += seconds }
        return sums.map { (name: $0.key, seconds: $0.value) }.sorted { $0.seconds != $1.seconds ? $0.seconds > $1.seconds : $0.name < $1.name }
    }
}
