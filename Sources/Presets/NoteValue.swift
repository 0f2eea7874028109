// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later


/// A note value written `n/d` (`3/16`: a dotted eighth), as a fraction of a whole note.
public enum NoteValue {
    /// The accepted forms, for messages.
    public static let accepted = "a note value n/d with n 1…32 and d 1, 2, 4, 8, 16 or 32, such as \"3/16\""

    /// The note value `text` in whole notes, or nil when it is not `n/d` with n 1…32 and d a
    /// power of two up to 32.
    public static func wholeNotes(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), (1...32).contains(n),
              [1, 2, 4, 8, 16, 32].contains(d) else { return nil }
        return Double(n) / Double(d)
    }
}
