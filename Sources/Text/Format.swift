// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Escaping
/// Deterministic number formatting (no locale, no Foundation), for logs and messages.
public enum Format {
    /// `value` with exactly `decimals` digits after the point, rounded half away from zero.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e18 else { return plain(value) }
        let integer = UInt64(scaled)
        let unit = UInt64(scale)
        let whole = integer / unit
        let negative = value < 0 && integer != 0
        guard decimals > 0 else { return (negative ? "-" : "") + String(whole) }
        var fraction = String(integer % unit)
        while fraction.count < decimals { fraction = "0" + fraction }
        return (negative ? "-" : "") + String(whole) + "." + fraction
    }

    /// The shortest text that reads back as `value` (Swift's own), without a trailing ".0".
    public static func plain(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func jsonString(_ text: String) -> String { Escape.json(text) }
}
