// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Text

/// Writes a `JSONValue` back as compact JSON text (used to build and mutate presets in tests and the fuzzer).
public enum JSONWriter {
    /// Compact JSON for `value`. Non-finite numbers are written as their Swift spelling, which
    /// is not JSON: the parser must then reject them, which is what a fuzzer wants to check.
    public static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(_, let exact?): out += String(exact)
        case .number(let n, nil): out += n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
        case .string(let s): quote(s, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                quote(member.key, into: &out)
                out += ":"
                write(member.value, into: &out)
            }
            out += "}"
        }
    }

    private static func quote(_ text: String, into out: inout String) {
        out += Format.jsonString(text)
    }
}
