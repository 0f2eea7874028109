// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// "Did you mean …?": the accepted word nearest to a mistyped one.
public enum Suggestion {
    /// The word of `candidates` nearest to `word` by edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours, letter case ignored), if it is near enough to be
    /// a slip: at most one edit in a word of up to four letters, two up to eight, three beyond.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        guard !typed.isEmpty else { return nil }
        let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= allowed, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// " (did you mean X?)" for the nearest candidate, or "" when none is near.
    public static func didYouMean(_ word: String, in candidates: [String], quoted: Bool = false) -> String {
        guard let near = closest(to: word, in: candidates) else { return "" }
        return " (did you mean " + (quoted ? "\"\(near)\"" : near) + "?)"
    }

    /// Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a span).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
