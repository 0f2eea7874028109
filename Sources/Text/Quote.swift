// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Escaping
import FileOutput
/// User-supplied text on its way to a terminal or a file that promises plain text: control
/// characters escaped (a preset can neither move the cursor nor rewrite the user's terminal),
/// long input cut to a readable length (an error never echoes a megabyte).
public enum Quote {
    /// Characters kept of one quoted value before it is cut.
    public static let defaultLimit = 80

    /// `text` with control characters escaped, cut after `limit` characters:
    /// `aaaa… (900000 characters)`.
    public static func text(_ text: String, limit: Int = defaultLimit) -> String {
        var count = 0
        var result = ""
        for character in text {
            if count == limit {
                return result + "… (\(text.count) characters)"
            }
            count += 1
            for scalar in character.unicodeScalars { append(scalar, to: &result, keepNewlines: false) }
        }
        return result
    }

    /// `text` as printable ASCII: everything else written as `\u{…}` (for the MIDI text event).
    public static func ascii(_ text: String, limit: Int = defaultLimit) -> String {
        var result = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == limit { return result + "..." }
            if (0x20..<0x7F).contains(scalar.value) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// A whole message (an error, possibly several lines): newlines kept, other control
    /// characters escaped, every run of more than `word` non-blank characters cut.
    public static func message(_ text: String, word: Int = 2 * defaultLimit) -> String {
        var result = ""
        var run = 0
        var skipped = 0
        for character in text {
            if character == " " || character == "\n" || character == "…" {
                if skipped > 0 { result += "… (\(skipped) more characters)"; skipped = 0 }
                run = 0
                result.append(character)
                continue
            }
            run += 1
            if run > word { skipped += 1; continue }
            for scalar in character.unicodeScalars { append(scalar, to: &result, keepNewlines: true) }
        }
        if skipped > 0 { result += "… (\(skipped) more characters)" }
        return result
    }

    /// True for scalars that steer a terminal rather than show a glyph: C0 and C1 controls,
    /// DEL, line and paragraph separators, bidirectional overrides.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool { Escape.isControl(scalar) }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String, keepNewlines: Bool) {
        // A byte of a file name that is not UTF-8 (see `PathBytes`), shown as the byte.
        if let byte = PathBytes.escapedByte(scalar) {
            result += "\\x" + String(byte, radix: 16, uppercase: true)
            return
        }
        guard isControl(scalar) else { result.unicodeScalars.append(scalar); return }
        switch scalar {
        case "\n" where keepNewlines: result += "\n"
        case "\t" where keepNewlines: result += "\t"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case "\r": result += "\\r"
        default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
