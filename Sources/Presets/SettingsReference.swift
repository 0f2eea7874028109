// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls


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
        replacing(in: readme, from: beginMarker, to: endMarker, with: markdownTable())
    }

    /// `text` with the lines between the marker lines `begin` and `end` replaced by `table`, or
    /// nil when a marker is missing.
    static func replacing(in text: String, from begin: String, to end: String, with table: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { $0 == begin }),
              let last = lines.firstIndex(where: { $0 == end }), first < last else { return nil }
        return lines[...first].joined(separator: "\n") + "\n" + table + lines[last...].joined(separator: "\n")
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

/// The controls table's reference: the OSC-in table of docs/studio.md (`make docs` writes it;
/// a test compares it).
public enum ControlsReference {
    /// The line before the generated table in docs/studio.md.
    public static let beginMarker = "<!-- controls table: generated from Sources/Controls/Control.swift by `make docs`; do not edit -->"
    /// The line after it.
    public static let endMarker = "<!-- end of controls table -->"

    /// The Markdown table, one row per control: the message, what it accepts, what it does and
    /// whether a scene may set it.
    public static func markdownTable() -> String {
        var lines = ["| message | accepted | effect | in scenes |", "|---|---|---|---|"]
        for row in Control.table {
            let cells = ["`\(row.message)`", row.accepted, row.effect, row.inScenes ? "`\"\(row.name)\"`" : "no"]
            lines.append("| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `studio` (docs/studio.md) with its controls table regenerated, or nil without the markers.
    public static func updating(studio: String) -> String? {
        SettingsReference.replacing(in: studio, from: beginMarker, to: endMarker, with: markdownTable())
    }
}
