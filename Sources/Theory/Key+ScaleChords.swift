// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Chords built from the scale's own tones.
extension Key {
    /// The chord on `degree` built only from tones the scale plays, with `toneCount` tones.
    ///
    /// The rule: stack thirds over the degree in the seven-degree scale the scale is drawn from
    /// (degrees d, d+2, d+4, … up to d+12, the 13th) and keep the first `toneCount` that the scale
    /// plays. For a seven-degree scale this is `chord(on:toneCount:)` (the diatonic triad, seventh,
    /// ninth); for a pentatonic or blues scale a third the scale lacks is skipped and the stack goes
    /// on: C major pentatonic's I is C E G D (Cadd9, B is not in the scale), A minor pentatonic's
    /// III is C E G D. The blues scale's added ♭5 is never a chord tone. Every tone of the
    /// result is in the scale; if the scale has fewer tones than asked, the chord has fewer.
    public func scaleChord(on degree: ScaleDegree, toneCount: Int) -> Chord {
        guard scale.degrees.count < 7 else { return chord(on: degree, toneCount: toneCount) }
        let rootStep = scale.step(of: degree)
        var intervals: [Int] = []
        var offset = 0
        while intervals.count < max(1, toneCount) && offset <= 12 {
            let tone = degree.advanced(by: offset)
            if scale.contains(tone) {
                intervals.append((((scale.step(of: tone) - rootStep) % 12) + 12) % 12 + 12 * (offset / 7))
            }
            offset += 2
        }
        return Chord(root: pitchClass(of: degree), intervals: intervals)
    }
}
