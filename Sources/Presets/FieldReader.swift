// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Text
import Vocabulary

/// Reads typed values out of a parsed preset; every problem names the file and the field path.
struct FieldReader {
    /// The file name used in every message.
    let file: String
    /// Where problems are kept when every problem is wanted (`clumsy validate`); nil stops at the first.
    let problems: Problems?

    /// Every problem found in a file, in the order found.
    final class Problems {
        var list: [SessionError] = []
    }

    init(file: String, collecting problems: Problems? = nil) {
        self.file = file
        self.problems = problems
    }

    /// Runs `read`; a problem it throws is kept and reading goes on when collecting, else thrown.
    func attempt(_ read: () throws(SessionError) -> Void) throws(SessionError) {
        do {
            try read()
        } catch {
            guard let problems else { throw error }
            problems.list.append(error)
        }
    }

    func fail(_ path: String, _ message: String) -> SessionError {
        .preset(file: file, field: path, message: message)
    }

    /// The members of an object, rejecting any field not in `allowed`.
    func object(_ value: JSONValue, at path: String, allowed: [String]) throws(SessionError) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = value else {
            throw fail(path, "expected an object ({ … }), found \(value.typeName)")
        }
        for member in members where !allowed.contains(member.key) {
            let field = Self.join(path, member.key)
            let hint = Self.otherNames[field].map { " (did you mean \($0)?)" } ?? Suggestion.didYouMean(member.key, in: allowed)
            try attempt { () throws(SessionError) in throw fail(field, "unknown field\(hint); accepted fields here: \(allowed.joined(separator: ", "))") }
        }
        return members.filter { allowed.contains($0.key) }
    }

    /// Fields people reach for under another name, and the field that does it.
    static let otherNames = ["key.mode": "key.scale", "key.key": "key.tonic", "key.root": "key.tonic", "mode": "key.scale",
                             "scale": "key.scale", "tonic": "key.tonic", "time.tempo": "tempo", "bpm": "tempo",
                             "time.meter": "meter", "quantize": "time.quantize", "swing": "time.swing",
                             "bass.speed": "speed", "piano.gravity": "gravity", "piano.balls": "piano.count", "balls": "piano.count"]

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A number in `range`; `accepted` is the range as messages show it.
    func number(_ value: JSONValue, at path: String, range: ClosedRange<Double>, accepted: String) throws(SessionError) -> Double {
        guard case .number(let number, _) = value else {
            throw fail(path, "expected a number (\(accepted)), found \(value.typeName)")
        }
        guard range.contains(number) else {
            throw fail(path, "\(Format.plain(number)) is out of range; accepted: \(accepted)")
        }
        return number
    }

    /// A whole number in `range`.
    func integer(_ value: JSONValue, at path: String, range: ClosedRange<Int>) throws(SessionError) -> Int {
        guard case .number(let number, _) = value else {
            throw fail(path, "expected a whole number (\(Limits.text(range))), found \(value.typeName)")
        }
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw fail(path, "\(Format.plain(number)) is not accepted; expected a whole number in \(Limits.text(range))")
        }
        return Int(number)
    }

    /// A whole number 0…2^64−1, exactly as written.
    func seed(_ value: JSONValue, at path: String) throws(SessionError) -> UInt64 {
        let accepted = "a whole number 0…\(UInt64.max), written with digits only"
        guard case .number(let number, let exact) = value else {
            throw fail(path, "expected \(accepted), found \(value.typeName)")
        }
        if let exact { return exact }
        // Below 2^53 every whole Double is exact; above it only `exact` keeps the digits.
        guard number == number.rounded(), number >= 0, number < 9_007_199_254_740_992 else {
            throw fail(path, "\(Format.plain(number)) is not accepted; expected \(accepted)")
        }
        return UInt64(number)
    }

    /// A boolean.
    func boolean(_ value: JSONValue, at path: String) throws(SessionError) -> Bool {
        guard case .bool(let flag) = value else { throw fail(path, "expected true or false, found \(value.typeName)") }
        return flag
    }

    /// A string.
    func string(_ value: JSONValue, at path: String, expected: String = "a string") throws(SessionError) -> String {
        guard case .string(let text) = value else { throw fail(path, "expected \(expected), found \(value.typeName)") }
        return text
    }

    /// A string that must be one of `choices`.
    func choice(_ value: JSONValue, at path: String, choices: [String]) throws(SessionError) -> String {
        let text = try string(value, at: path, expected: "one of \(choices.joined(separator: ", "))")
        guard choices.contains(text) else {
            throw fail(path, "\"\(Quote.text(text))\" is not accepted\(Suggestion.didYouMean(text, in: choices)); expected one of: \(choices.joined(separator: ", "))")
        }
        return text
    }

    /// A list of distinct whole numbers from `range`, between 1 and `maximumCount` long.
    func integerList(_ value: JSONValue, at path: String, range: ClosedRange<Int>, maximumCount: Int,
                     what: String) throws(SessionError) -> [Int] {
        guard case .array(let elements) = value else {
            throw fail(path, "expected an array of \(what) (\(Limits.text(range))), found \(value.typeName)")
        }
        guard !elements.isEmpty else { throw fail(path, "must list at least one \(what) (\(Limits.text(range)))") }
        guard elements.count <= maximumCount else { throw fail(path, "lists \(elements.count) entries; at most \(maximumCount)") }
        var result: [Int] = []
        for (index, element) in elements.enumerated() {
            guard case .number(let number, _) = element, number == number.rounded(),
                  number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
                let found: String
                if case .number(let n, _) = element { found = Format.plain(n) } else { found = element.typeName }
                throw fail("\(path)[\(index)]", "expected a whole number in \(Limits.text(range)), found \(found)")
            }
            guard !result.contains(Int(number)) else { throw fail("\(path)[\(index)]", "\(Int(number)) is listed twice") }
            result.append(Int(number))
        }
        return result
    }
}
