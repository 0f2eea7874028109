// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (Foundation's
    /// `trimmingCharacters(in: .whitespaces)`, which Clumsy's modules do not import).
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace && !$0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
