// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// `-` as an output's name: the program's standard output, as in sox and most Unix tools.
/// An audio output may say its format before it (`flac:-`, `wav:-`, `ogg:-`), as sox's
/// `-t flac -` does; a plain `-` is WAV there.
public enum StandardOutputName {
    /// The path standard output is opened through (a pipe or a file the shell redirected to).
    public static let device = "/dev/stdout"

    /// True when `path` is `-` or `<format>:-` with a format word of letters and digits.
    public static func isStandardOutput(_ path: String) -> Bool {
        guard path.hasSuffix("-") else { return false }
        if path == "-" { return true }
        let format = path.dropLast(2)
        return path.dropLast().hasSuffix(":") && !format.isEmpty && format.count <= 8 && format.allSatisfy { $0.isLetter || $0.isNumber }
    }

    /// The format word before `:-` (`flac`), or nil for a plain `-` or a file name.
    public static func format(of path: String) -> String? {
        guard isStandardOutput(path), path != "-" else { return nil }
        return String(path.dropLast(2)).lowercased()
    }

    /// How messages and the summary name `path`: "standard output" for `-`, else the path.
    public static func shown(_ path: String) -> String { isStandardOutput(path) ? "standard output" : path }
}
