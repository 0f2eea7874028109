// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Escaping
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One test per language Clumsy writes: each escaped string is read back as that language's
/// reader would (the shell itself, Foundation's JSON and XML parsers, a decoder of LilyPond's
/// and Turtle's string escapes) and must be exactly one string equal to what was escaped.
@Suite("Escaping, per Unicode scalar")
struct EscapeTests {
    /// Quotes carrying combining marks (one Swift `Character` each), bidirectional controls,
    /// terminal escapes, NUL and the like, markup characters, non-ASCII text.
    static let hostile: [String] = [
        "plain", "", "X\"\u{301} = #(system \"touch pwned\") t = \"\u{301}",
        "x'\u{301}; touch pwned; : '\u{301}", "'", "''", "\"", "\\", "\\\"", "a\\\u{301}\"",
        "\u{202E}evil\u{202C}", "\u{2066}iso\u{2069}\u{2067}x\u{2068}", "line\nbreak\r\ttab",
        "\u{1B}[2J\u{7}\u{7F}\u{85}\u{9B}", "nul\u{0}byte\u{1}", "&<>\"'&amp;", "]]>", "\u{2028}\u{2029}",
        "Ünïcödé ♭♯ 🎹 e\u{301}", "$(touch pwned)`touch pwned`$HOME", "\u{FEFF}\u{FFFE}\u{FFFF}",
        "#(display 1)", "%{ comment", "\"\u{301}\u{302}\u{20DD}", "'\u{200D}'\u{FE0F}",
    ]

    @Test("LilyPond: the string ends only at its closing quote and reads back as the text")
    func lilyPond() throws {
        for text in Self.hostile {
            let literal = Escape.lilyPond(text)
            let decoded = try #require(Self.decodeBackslashed(literal, escapes: ["\"": "\"", "\\": "\\", "n": "\n", "t": "\t"]),
                                       "\(Array(literal.unicodeScalars))")
            let expected = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
                scalar == "\n" || scalar == "\t" || !Escape.isControl(scalar) ? scalar : "\u{FFFD}"
            }))
            #expect(decoded == expected, "\(literal)")
            #expect(!literal.unicodeScalars.contains { Escape.isControl($0) })
        }
    }

    @Test("Shell: /bin/sh reads each word back byte for byte, and nothing else runs")
    func shell() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("escape-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for text in Self.hostile where !text.unicodeScalars.contains("\u{0}") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.currentDirectoryURL = directory
            process.arguments = ["-c", "printf '%s' " + Escape.shellWord(text)]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(Array(output) == Array(text.utf8), "\(Escape.shellWord(text))")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("pwned").path))
        #expect(Escape.shellWord("default") == "default")
        #expect(Escape.shellWord("--seed=4") == "--seed=4")
    }

    @Test("Turtle: a string literal that reads back as the text, no raw control character")
    func turtle() throws {
        for text in Self.hostile {
            let literal = Escape.turtle(text)
            let decoded = try #require(Self.decodeBackslashed(literal, escapes: ["\"": "\"", "\\": "\\"]), "\(literal)")
            #expect(decoded == text, "\(literal)")
            #expect(!literal.unicodeScalars.contains { Escape.isControl($0) })
        }
    }

    @Test("XML: Foundation's parser reads an attribute and an element back as the text")
    func xml() throws {
        for text in Self.hostile {
            let escaped = Escape.xml(text)
            let expected = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
                (scalar.value < 0x20 && !"\t\n\r".unicodeScalars.contains(scalar)) || scalar.value == 0xFFFE
                    || scalar.value == 0xFFFF ? "\u{FFFD}" : scalar
            }))
            let document = "<?xml version=\"1.0\"?><a t=\"\(escaped)\" u='\(escaped)'>\(escaped)</a>"
            let reader = XMLReadBack(Data(document.utf8))
            #expect(reader.parse(), "\(document)")
            #expect(reader.attributes["t"] == expected && reader.attributes["u"] == expected, "\(escaped)")
            #expect(reader.text == expected, "\(escaped)")
            #expect(!escaped.unicodeScalars.contains { Escape.isControl($0) })
        }
    }

    @Test("JSON: JSONSerialization reads the literal back as the text")
    func json() throws {
        for text in Self.hostile {
            let literal = Escape.json(text)
            let value = try JSONSerialization.jsonObject(with: Data(("[" + literal + "]").utf8)) as? [String]
            #expect(value == [text], "\(literal)")
            #expect(!literal.unicodeScalars.contains { Escape.isControl($0) || $0 == "\u{FEFF}" })
        }
        #expect(Escape.json("a\"b\n") == "\"a\\\"b\\n\"")
    }

    /// The text between a literal's quotes with `\x` escapes (and Turtle's `\uXXXX`) undone,
    /// or nil when a quote ends the literal early or an escape is unknown.
    static func decodeBackslashed(_ literal: String, escapes: [Unicode.Scalar: Unicode.Scalar]) -> String? {
        var scalars = Array(literal.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return nil }
        scalars = Array(scalars[1..<(scalars.count - 1)])
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" { return nil }
            guard scalar == "\\" else { out.append(scalar); index += 1; continue }
            guard index + 1 < scalars.count else { return nil }
            let next = scalars[index + 1]
            if let replacement = escapes[next] {
                out.append(replacement)
                index += 2
            } else if next == "u", index + 6 <= scalars.count,
                      let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 2)..<(index + 6)])), radix: 16),
                      let decoded = Unicode.Scalar(value), escapes.count == 2 {
                out.append(decoded)
                index += 6
            } else {
                return nil
            }
        }
        return String(out)
    }
}

/// Reads `<a t="…" u='…'>…</a>` back: the attributes and the character data.
final class XMLReadBack: NSObject, XMLParserDelegate {
    private let parser: XMLParser
    var attributes: [String: String] = [:]
    var text = ""

    init(_ data: Data) {
        parser = XMLParser(data: data)
        super.init()
        parser.delegate = self
    }

    func parse() -> Bool { parser.parse() }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        self.attributes = attributes
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
