// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// How accidentals are written when a spelled note, chord or key is printed.
public enum SpellingStyle: String, Sendable, Hashable, CaseIterable, Codable {
    /// Music symbols for people: ♯ ♭ 𝄪 𝄫, ° ø in chord symbols ("E♭maj7", "Bø7"). The terminal uses this.
    case unicode
    /// Plain ASCII for files and programs: # b ## bb, "dim" and "m7b5" ("Ebmaj7", "Bm7b5").
    /// The MIDI file's text event and `clumsy analyze --json` use this.
    case ascii

    /// The text of an accidental of `count` semitones (negative = flats); "" for a natural.
    public func accidental(_ count: Int) -> String {
        switch (self, count) {
        case (_, 0): return ""
        case (.unicode, 1): return "♯"
        case (.unicode, 2): return "𝄪"
        case (.unicode, -1): return "♭"
        case (.unicode, -2): return "𝄫"
        case (.unicode, _): return String(repeating: count > 0 ? "♯" : "♭", count: abs(count))
        case (.ascii, _): return String(repeating: count > 0 ? "#" : "b", count: abs(count))
        }
    }
}
