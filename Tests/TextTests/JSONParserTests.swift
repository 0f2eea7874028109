// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Testing
@testable import Text

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#"{"a": [1, -2.5e2, true, false, null], "b": "x\ny\u00e9\ud83c\udfb9", "c": {}}"#)
        #expect(value == .object([
            ("a", .array([.number(1), .number(-250), .bool(true), .bool(false), .null])),
            ("b", .string("x\nyé🎹")),
            ("c", .object([])),
        ]))
    }

    @Test func keepsIntegersAbove2To53Exactly() throws {
        #expect(try parse("18446744073709551615") == .number(18446744073709551615.0, exact: UInt64.max))
        #expect(try parse("9007199254740993") == .number(9007199254740992.0, exact: 9_007_199_254_740_993))
        #expect(try parse("9007199254740991") == .number(9007199254740991))   // below 2^53: a Double is exact
        #expect(try parse("18446744073709551616") == .number(18446744073709551616.0))   // beyond UInt64: no exact value
        #expect(try parse("1e19") == .number(1e19))
    }

    @Test(arguments: [
        ("", "empty"), ("   ", "empty"), ("{", "truncated"), (#"{"a": 1"#, "truncated"), (#"{"a": "x"#, "truncated"),
        (#"{"a": NaN}"#, "NaN"), (#"{"a": Infinity}"#, "NaN"), (#"{"a": -Infinity}"#, "NaN"),
        (#"{"a": 01}"#, "leading zeros"), (#"{"a": 1.}"#, "decimal point"), (#"{"a": 1e999}"#, "too large"),
        (#"{"a": 1, "a": 2}"#, "appears twice"), (#"{"a": 1} x"#, "after the end"), ("{'a': 1}", "field name"),
        (#"{"a": tru}"#, "expected true"), (#"{"a": [1,]}"#, "expected a JSON value"), (#"{"a": "\q"}"#, "invalid escape"),
        (#"{"a": "\ud800"}"#, "surrogate"),
    ])
    func rejectsWithAReason(text: String, reason: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func reportsLineAndColumn() {
        do {
            _ = try parse("{\n  \"a\": 1,\n  \"b\": x\n}")
            Issue.record("accepted bad JSON")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
        }
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { _ = try parse(deep) }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { _ = try parse(fine) }
    }

    @Test func rejectsInvalidUTF8InStrings() {
        let bytes: [UInt8] = Array(#"{"a": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        #expect(throws: JSONSyntaxError.self) { _ = try JSONParser.parse(bytes) }
    }
}

@Suite struct FormatTests {
    @Test func fixedDecimals() {
        #expect(Format.fixed(0, decimals: 6) == "0.000000")
        #expect(Format.fixed(1.5, decimals: 2) == "1.50")
        #expect(Format.fixed(2.0 / 3, decimals: 4) == "0.6667")
        #expect(Format.fixed(-0.25, decimals: 1) == "-0.3")
        #expect(Format.fixed(-0.00001, decimals: 2) == "0.00")
        #expect(Format.fixed(86400.123456789, decimals: 6) == "86400.123457")
        #expect(Format.fixed(12, decimals: 0) == "12")
    }

    @Test func plainNumbers() {
        #expect(Format.plain(100) == "100")
        #expect(Format.plain(0.1) == "0.1")
        #expect(Format.plain(9.81) == "9.81")
    }
}
