// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// A chord named from a set of sounding pitches: root, quality, and the bass (inversion or slash bass).
public struct ChordIdentification: Sendable, Hashable {
    /// The chord (root and catalog intervals).
    public let chord: Chord
    /// The lowest sounding pitch class.
    public let bass: PitchClass
    /// Which chord tone is in the bass: 0 root position, 1 first inversion (third), 2 second (fifth),
    /// 3 third (seventh), …; nil when the bass is not a chord tone (a slash bass, e.g. C/D).
    public let inversion: Int?
    /// Sounding pitch classes that are not chord tones (non-chord tones left after matching).
    public let extraTones: [PitchClass]
    /// Chord tones that do not sound (only an omitted fifth is allowed).
    public let missingTones: [PitchClass]

    /// Creates an identification from its parts.
    public init(chord: Chord, bass: PitchClass, inversion: Int?, extraTones: [PitchClass], missingTones: [PitchClass]) {
        self.chord = chord
        self.bass = bass
        self.inversion = inversion
        self.extraTones = extraTones
        self.missingTones = missingTones
    }

    /// Names the chord formed by `pitches` (MIDI notes, any order, repeats allowed), or nil when fewer
    /// than three pitch classes sound or nothing in the catalog fits.
    ///
    /// Every sounding pitch class is tried as a root with every catalog quality. A candidate must
    /// contain all its tones except possibly the fifth of a chord of four or more tones. Score: 2 per
    /// tone that sounds, −3 per missing tone, −2 per sounding tone outside the chord, +1 when the root is in the
    /// bass; the highest wins, then the quality earlier in the catalog (sevenths before triads, triads
    /// before sixths and ninths). So {C E G A} over C is C6, over A Am7; {C E G} plus a D is Cadd9, but
    /// a lone D in the bass under C E G is C/D (a slash bass, `inversion` nil).
    public static func identify(_ pitches: [Int]) -> ChordIdentification? {
        guard let lowest = pitches.min() else { return nil }
        let bass = PitchClass(lowest)
        var present = [Bool](repeating: false, count: 12)
        for note in pitches { present[PitchClass(note).value] = true }
        let sounding = (0..<12).filter { present[$0] }
        guard sounding.count >= 3 else { return nil }
        var best: (score: Int, order: Int, chord: Chord, missing: [PitchClass])?
        for root in sounding {
            for (order, quality) in ChordQuality.allCases.enumerated() where quality != .other {
                let tones = quality.intervals.map { (root + $0) % 12 }
                let missing = tones.enumerated().filter { !present[$0.element] }
                if missing.count > 1 { continue }
                if let gap = missing.first, !(quality.intervals.count >= 4 && quality.intervals[gap.offset] == 7) { continue }
                let matched = tones.count - missing.count
                let extra = sounding.filter { !tones.contains($0) }.count
                let score = 2 * matched - 3 * missing.count - 2 * extra + (root == bass.value ? 1 : 0)
                if best == nil || score > best!.score || (score == best!.score && order < best!.order) {
                    best = (score, order, Chord(root: PitchClass(root), quality: quality), missing.map { PitchClass($0.element) })
                }
            }
        }
        guard let best else { return nil }
        // A bass heard only in the bass that would be a ninth (Cadd9/D) reads better as a slash bass
        // under the chord above it (C/D), when the notes above form a complete chord on their own.
        let upper = pitches.filter { PitchClass($0) != bass }
        let tones = best.chord.tones
        if let index = tones.firstIndex(of: bass), best.chord.intervals[index] == 14, pitches.filter({ PitchClass($0) == bass }).count == 1,
           let above = identify(upper), above.extraTones.isEmpty, above.missingTones.isEmpty {
            return ChordIdentification(chord: above.chord, bass: bass, inversion: nil, extraTones: [], missingTones: [])
        }
        let extra = sounding.map(PitchClass.init).filter { !tones.contains($0) }
        return ChordIdentification(chord: best.chord, bass: bass, inversion: tones.firstIndex(of: bass),
                                   extraTones: extra, missingTones: best.missing)
    }

    /// The symbol spelled in `key`, with "/bass" unless in root position, e.g. "C/E", "G7/F", "C/D".
    public func symbol(in key: Key, style: SpellingStyle = .unicode) -> String {
        key.symbol(of: chord, bass: inversion == 0 ? nil : bass, style: style)
    }

    /// The bass as `key` writes it: as the chord tone it is (E♯ in C♯ major), else as a note of the key.
    public func spelledBass(in key: Key) -> SpelledPitchClass {
        zip(chord.tones, key.spelledTones(of: chord)).first { $0.0 == bass }?.1 ?? key.spell(bass)
    }

    /// "root position", "1st inversion", "2nd inversion", "3rd inversion", "4th inversion", or "slash bass".
    public var inversionName: String {
        guard let inversion else { return "slash bass" }
        return ["root position", "1st inversion", "2nd inversion", "3rd inversion", "4th inversion", "5th inversion"][min(inversion, 5)]
    }
}
