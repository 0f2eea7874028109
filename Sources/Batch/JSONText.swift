// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Text

/// Compact JSON text of a `JSONValue` (members in order, no spaces): one line of a manifest.
enum JSONText {
    static func of(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number, let exact):
            return exact.map { String($0) } ?? Format.plain(number)
        case .string(let text): return Format.jsonString(text)
        case .array(let items): return "[" + items.map(of).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Format.jsonString($0.key) + ":" + of($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// The member `key` of an object, or nil.
    static func member(_ key: String, of value: JSONValue) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    static func string(_ key: String, of value: JSONValue) -> String? {
        guard case .string(let text)? = member(key, of: value) else { return nil }
        return text
    }

    static func number(_ key: String, of value: JSONValue) -> Double? {
        guard case .number(let number, _)? = member(key, of: value) else { return nil }
        return number
    }
}
