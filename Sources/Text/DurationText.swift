// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Session lengths as people write them: `90`, `90s`, `1.5`, `5m`, `1h30m`, `2h`, `2:30`, `1:02:03`.
public enum DurationText {
    /// What `--duration` accepts, for messages.
    public static let accepted = "seconds (90, 90s, 0.5), minutes and hours (5m, 1h30m, 2h), or m:ss and h:mm:ss (2:30)"

    /// Seconds written by `text`, or nil if it is not a duration. A bare number is returned
    /// as written (negative, NaN or infinite too), for the caller's range check to refuse.
    public static func seconds(_ text: String) -> Double? {
        let text = String(text.lowercased().drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        // A plain number is taken as it is, sign, NaN and all: the range check then names it.
        if let plain = Double(text) { return plain }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "hms:.".contains($0)) }) else { return nil }
        if text.contains(":") { return clock(text) }
        // Units, largest first, each at most once: 1h30m, 5m, 90s, 1m30.5s.
        var total = 0.0, number = "", seen: [Character] = []
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let value = Double(number), let scale = ["h": 3600.0, "m": 60, "s": 1][character],
                  seen.allSatisfy({ order($0) < order(character) }) else { return nil }
            total += value * scale
            seen.append(character)
            number = ""
        }
        guard number.isEmpty, !seen.isEmpty else { return nil }
        return total
    }

    private static func order(_ unit: Character) -> Int { unit == "h" ? 0 : unit == "m" ? 1 : 2 }

    /// `m:ss` or `h:mm:ss`: the later parts below 60, the last may have a fraction.
    private static func clock(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && !$0.contains("h") && !$0.contains("m") && !$0.contains("s") }) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = Double(part), value.isFinite, index == parts.count - 1 || !part.contains(".") else { return nil }
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }
}
