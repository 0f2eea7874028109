// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Batch
import Errors
import Escaping
import Text
#if canImport(Glibc)
import Glibc
#endif

/// Issue 30's fuzz targets: the escaping of every language Clumsy writes, batch item
/// manifests, and the LV2 plugin's control ports and `time:Position` as its engine reads them.
extension FuzzTarget {
    /// Any text through every escaping, each read back by a reader of that language
    /// (`EscapeReader`): one literal, equal to the text. Input that is not UTF-8 is rejected.
    public static func escaping(seeds: [[UInt8]]) -> FuzzTarget {
        FuzzTarget(name: "escaping", seeds: seeds, tokens: escapeTokens, structure: .bytes) { input, _ in
            guard let text = String(validating: input, as: UTF8.self) else { return .rejected }
            if let problem = EscapeReader.problem(text) { throw Finding(description: problem) }
            return .accepted
        }
    }

    /// Batch item manifests (`clumsy batch --manifest`): items, or a clean refusal (64, 65, 66).
    public static func batchManifest(seeds: [[UInt8]]) -> FuzzTarget {
        FuzzTarget(name: "batch-manifest", seeds: seeds, tokens: jsonTokens + [Array("\r\n".utf8), Array("\"settings\":".utf8)],
                   structure: .jsonLines) { _, path in
            do throws(SessionError) {
                _ = try BatchItems.read(manifest: path)
                return .accepted
            } catch {
                guard [64, 65, 66].contains(error.exitStatus) else { throw Finding(description: "exit \(error.exitStatus): \(error)") }
                return .rejected
            }
        }
    }

    static let escapeTokens: [[UInt8]] = ["\"", "'", "\\", "\u{301}", "\u{202E}", "\u{2066}", "\u{0}", "\u{1B}[", "&", "<", "]]>",
                                          "\u{2028}", "\u{FEFF}", "#(", "$(", "`", "\n", "\r", "\u{7F}", "\u{85}"].map { Array($0.utf8) }
}

/// The readers the escaping fuzz target checks each language with.
public enum EscapeReader {
    /// What is wrong with the escapes of `text`, or nil.
    public static func problem(_ text: String) -> String? {
        let lily = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\t" || !Escape.isControl($0) ? $0 : "\u{FFFD}" }))
        if backslashed(Escape.lilyPond(text), unicode: false) != lily { return "LilyPond: \(Escape.lilyPond(text))" }
        if backslashed(Escape.turtle(text), unicode: true) != text { return "Turtle: \(Escape.turtle(text))" }
        if !text.unicodeScalars.contains("\u{0}"), shell(Escape.shellWord(text)) != text { return "shell: \(Escape.shellWord(text))" }
        guard case .string(let read)? = try? JSONParser.parse(Array(Escape.json(text).utf8)), read == text else {
            return "JSON: \(Escape.json(text))"
        }
        if Escape.xml(text).unicodeScalars.contains(where: { $0 == "<" || $0 == "\"" || $0 == "'" || Escape.isControl($0) }) {
            return "XML: \(Escape.xml(text))"
        }
        return nil
    }

    /// A double-quoted literal read back: `\"`, `\\`, `\n`, `\t` (and `\uXXXX` when `unicode`);
    /// nil when a bare quote ends it early or an escape is unknown.
    static func backslashed(_ literal: String, unicode: Bool) -> String? {
        let scalars = Array(literal.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return nil }
        var out = String.UnicodeScalarView()
        var index = 1
        while index < scalars.count - 1 {
            let scalar = scalars[index]
            if scalar == "\"" { return nil }
            guard scalar == "\\" else { out.append(scalar); index += 1; continue }
            guard index + 1 < scalars.count - 1 else { return nil }
            switch scalars[index + 1] {
            case "\"": out.append("\"")
            case "\\": out.append("\\")
            case "n" where !unicode: out.append("\n")
            case "t" where !unicode: out.append("\t")
            case "u" where unicode && index + 6 < scalars.count:
                guard let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 2)..<(index + 6)])), radix: 16),
                      let decoded = Unicode.Scalar(value) else { return nil }
                out.append(decoded)
                index += 4
            default: return nil
            }
            index += 2
        }
        return String(out)
    }

    /// One POSIX shell word read back (bare, or single-quoted pieces joined with `\'`); nil
    /// for anything else a shell would read otherwise (two words, an expansion).
    static func shell(_ word: String) -> String? {
        var out = String.UnicodeScalarView()
        var quoted = false
        var scalars = word.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if quoted {
                if scalar == "'" { quoted = false } else { out.append(scalar) }
            } else if scalar == "'" {
                quoted = true
            } else if scalar == "\\" {
                guard let next = scalars.next(), next == "'" else { return nil }
                out.append(next)
            } else if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./=:,+@%".unicodeScalars.contains(scalar)) {
                out.append(scalar)
            } else {
                return nil
            }
        }
        return quoted ? nil : String(out)
    }
}
