// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Text

/// The preset a `--help` is asked about (`clumsy run polska --help`), so that the flags' help
/// shows that preset's values instead of the built-in defaults.
public enum HelpPreset {
    /// The preset's name and parsed file, set once before the arguments are parsed.
    nonisolated(unsafe) public static var current: (name: String, json: JSONValue)?

    /// Notes the preset that `arguments` (after the program name) ask help about, if they ask
    /// for help of a command whose first argument names a readable preset.
    public static func note(_ arguments: [String]) {
        guard arguments.contains("--help") || arguments.contains("-h"), arguments.count >= 3,
              ["run", "draw"].contains(arguments[0]), !arguments[1].hasPrefix("-"),
              let path = try? PresetLibrary.locate(arguments[1]), let bytes = try? Preset.readFile(path),
              let json = try? JSONParser.parse(bytes) else { return }
        current = (arguments[1], json)
    }

    /// The help of the setting flag `flag`: with the current preset's value when there is one.
    public static func text(flag: String) -> String {
        let setting = Settings.setting(flag: flag)!
        guard let current else { return setting.help }
        return setting.help(in: current.json, named: current.name)
    }
}
