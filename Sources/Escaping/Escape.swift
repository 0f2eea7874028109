// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later
public enum Escape {
    /// True for scalars that steer a terminal or the direction of text rather than show a
    /// glyph: C0 and C1 controls, DEL, line and paragraph separators, bidirectional embeddings,
    /// overrides and isolates.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A LilyPond string literal, quotes included. LilyPond's strings know `\"`, `\\`, `\n` and
    /// `\t` and no numeric escape, so any other control character is written as U+FFFD: it can
    /// neither end the string nor reorder what a reader of the `.ly` file sees.
    public static func lilyPond(_ text: String) -> String {
        backslashQuoted(text) { scalar in
            switch scalar {
            case "\n": return "\\n"
            case "\t": return "\\t"
            default: return isControl(scalar) ? "\u{FFFD}" : nil
            }
        }
    }

    /// One word as a POSIX shell reads it back exactly: left bare when it holds only
    /// characters no shell treats specially, else in single quotes, each `'` written `'\''`.
    /// Inside single quotes every other byte is literal, so the word round-trips whatever it
    /// holds (a shell argument cannot hold NUL).
    public static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "-_./=:,+@%".unicodeScalars.contains(scalar))
        }
        if plain { return word }
        var out = "'"
        for scalar in word.unicodeScalars {
            if scalar == "'" { out += "'\\''" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "'"
    }

    /// A Turtle (RDF 1.1) string literal, quotes included: `"` and `\` escaped, every control
    /// character (bidirectional ones included) written as `\uXXXX`.
    public static func turtle(_ text: String) -> String {
        backslashQuoted(text) { scalar in isControl(scalar) ? unicodeEscape(scalar) : nil }
    }

    /// XML 1.0 character data or an attribute value (either quote): the five markup
    /// characters as entities, bidirectional controls and separators as numeric references,
    /// and the characters XML 1.0 forbids (C0 controls but tab, newline and return; U+FFFE,
    /// U+FFFF) as U+FFFD.
    public static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else if isControl(scalar) {
                    out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A JSON string literal, quotes included: `"` and `\` escaped, newline, return and tab
    /// by their short escapes, every other control character (bidirectional ones, the line
    /// and paragraph separators, which JavaScript reads as line ends) and the byte-order mark
    /// (which readers drop) as `\uXXXX`. Other scalars are written as they are.
    public static func json(_ text: String) -> String {
        backslashQuoted(text) { scalar in
            switch scalar {
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default: return isControl(scalar) || scalar == "\u{FEFF}" ? unicodeEscape(scalar) : nil
            }
        }
    }

    /// The grammar LilyPond, Turtle and JSON strings share: in double quotes, `"` and `\`
    /// written `\"` and `\\`; every other scalar is written as `escape` returns it, or as it is
    /// when `escape` returns nil.
    private static func backslashQuoted(_ text: String, escape: (Unicode.Scalar) -> String?) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if let escaped = escape(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// `\uXXXX` (four lower-case hex digits; the scalars escaped here are all below U+10000).
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
