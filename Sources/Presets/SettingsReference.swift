// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Text produced from the settings table: the reference in `Presets/README.md` and the
/// flag declarations of `clumsy run` (`make docs` writes both; tests compare them).
public enum SettingsReference {
    /// The line before the generated table in `Presets/README.md`.
    public static let beginMarker = "<!-- settings table: generated from Sources/Presets/Settings.swift by `make docs`; do not edit -->"
    /// The line after it.
    public static let endMarker = "<!-- end of settings table -->"

    /// The Markdown reference table, one row per setting.
    public static func markdownTable() -> String {
        var lines = ["| field | type | unit | default | accepted | flag | meaning |", "|---|---|---|---|---|---|---|"]
        for setting in Settings.all {
            let flag = setting.flag.map { "`--\($0)`" + (setting.flagTakesOff ? " (or `off`)" : "") } ?? ""
            let cells = ["`\(setting.path)`", setting.type, setting.unit, setting.defaultText, setting.accepted, flag, setting.doc]
            lines.append("| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `readme` with the text between the markers replaced by `markdownTable()`, or nil when
    /// the markers are missing.
    public static func updating(readme: String) -> String? {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        guard let begin = lines.firstIndex(where: { $0 == beginMarker }),
              let end = lines.firstIndex(where: { $0 == endMarker }), begin < end else { return nil }
        return lines[...begin].joined(separator: "\n") + "\n" + markdownTable() + lines[end...].joined(separator: "\n")
    }

    /// Swift source of the `SettingFlags` option group of `clumsy run`: one `@Option` per flag.
    public static func flagsSource() -> String {
        var out = """
        // SPDX-FileCopyrightText: 2026 The Clumsy authors
        // SPDX-License-Identifier: GPL-3.0-or-later

        // Generated from the settings table (Sources/Presets/Settings.swift) by `make docs`; do not edit.
        import ArgumentParser
        import Presets

        /// The flags of `clumsy run` that set a preset field; help and checks come from `Settings`.
        struct SettingFlags: ParsableArguments {

        """
        // The declarations on one line (their help is read from the rows when --help runs):
        // generated text that nobody edits, so it need not be laid out for reading.
        out += "    " + Settings.flagged.map { setting in
            let flag = setting.flag!
            return "@Option(name: .customLong(\"\(flag)\"), parsing: .unconditional, help: Self.help(\"\(flag)\", \"\(setting.valueName)\"), completion: Completions.setting(\"\(flag)\")) var \(swiftName(flag)): String?"
        }.joined(separator: "; ") + "\n"
        let pairs = Settings.flagged.map { "(\"\($0.flag!)\", \(swiftName($0.flag!)))" }.joined(separator: ", ")
        out += """

            /// The flags given: flag name → text.
            var given: [String: String] {
                let values: [(String, String?)] = [\(pairs)]
                return Dictionary(uniqueKeysWithValues: values.compactMap { flag, text in text.map { (flag, $0) } })
            }

            private static func help(_ flag: String, _ valueName: String) -> ArgumentHelp {
                ArgumentHelp(HelpPreset.text(flag: flag), valueName: valueName)
            }
        }

        """
        return out
    }

    /// `delay-mix` → `delayMix`.
    static func swiftName(_ flag: String) -> String {
        var result = ""
        var upper = false
        for character in flag {
            if character == "-" { upper = true; continue }
            result.append(upper ? Character(character.uppercased()) : character)
            upper = false
        }
        return result
    }
}

extension String {
    fileprivate func replacingPipes() -> String {
        var out = ""
        for character in self { out += character == "|" ? "\\|" : String(character) }
        return out
    }
}
