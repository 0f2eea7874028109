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
        guard let begin = readme.range(of: beginMarker + "\n"), let end = readme.range(of: endMarker),
              begin.upperBound <= end.lowerBound else { return nil }
        return String(readme[..<begin.upperBound]) + markdownTable() + String(readme[end.lowerBound...])
    }

    /// Swift source of the `SettingFlags` option group of `clumsy run`: one `@Option` per flag.
    public static func flagsSource() -> String {
        var out = """
        // Generated from the settings table (Sources/Presets/Settings.swift) by `make docs`; do not edit.
        import ArgumentParser
        import Presets

        /// The flags of `clumsy run` that set a preset field; help and checks come from `Settings`.
        struct SettingFlags: ParsableArguments {

        """
        for setting in Settings.flagged {
            let name = swiftName(setting.flag!)
            out += """
                @Option(name: .customLong("\(setting.flag!)"), parsing: .unconditional,
                        help: ArgumentHelp(Settings.setting(flag: "\(setting.flag!)")!.help, valueName: "\(setting.valueName)"))
                var \(name): String?

            """
        }
        out += """
            /// The flags given: flag name → text.
            var given: [String: String] {
                var flags: [String: String] = [:]

        """
        for setting in Settings.flagged {
            out += "        if let \(swiftName(setting.flag!)) { flags[\"\(setting.flag!)\"] = \(swiftName(setting.flag!)) }\n"
        }
        out += """
                return flags
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
