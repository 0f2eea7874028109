// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Presets
import Text
import Vocabulary

/// Values given on the command line that override the preset's.
public struct Overrides: Sendable, Equatable {
    /// Flag name (without dashes) → the text given, for the flags of the settings table
    /// (`Settings.flagged`); checked when the configuration is resolved.
    public var flags: [String: String] = [:]
    /// Switch filter, delay and reverb off.
    public var isDry = false
    /// A session of this many bars at the preset's tempo and meter (after the flags), in place
    /// of the duration given (`--bars`).
    public var bars: Int?
    /// Preset fields set from the command line (`--set path=value`), in order, before the flags.
    public var assignments: [FieldAssignment] = []
    /// The duration is the session's to the step, never lengthened to the end of a phrase (a
    /// replay runs the steps its log ran: `EndingPlan.length(of:asked:exactly:)`).
    public var isExact = false

    /// Overrides of the seed, gravity, speed and keys tone (nil = keep the preset's), as typed
    /// field assignments (checked as the preset file's values are).
    public init(seed: UInt64? = nil, gravity: Double? = nil, speed: Double? = nil, keysTone: String? = nil) {
        if let seed { assignments.append(FieldAssignment(path: "seed", value: .number(Double(seed), exact: seed))) }
        if let gravity { assignments.append(FieldAssignment(path: "gravity", value: .number(gravity))) }
        if let speed { assignments.append(FieldAssignment(path: "speed", value: .number(speed))) }
        if let keysTone { assignments.append(FieldAssignment(path: "keys.tone", value: .string(keysTone))) }
    }
}

/// `--set path=value`: any preset field from the command line, read exactly as the file's.
/// Code that holds a typed value (the plugin's ports) gives it as a `JSONValue`: nothing is
/// printed to text to be parsed back. The path is checked against the settings table here;
/// the value when the session is resolved (`Preset.assigning`), as the file's value would be.
public struct FieldAssignment: Sendable, Equatable, CustomStringConvertible {
    /// The field's dotted path in the settings table (`piano.count`).
    public var path: String
    /// The value as the preset file would hold it.
    public var value: JSONValue
    /// The value as typed: JSON (`8`, `true`, `[1, 3]`, `"C#"`), else taken as a string (`harp`).
    public var text: String

    /// `path=value` as given to `--set`.
    public var description: String { path + "=" + text }

    /// Sets the field at `path` (a row of the settings table; a programming error otherwise)
    /// to `value`, checked when it is applied as the file's value would be.
    public init(path: String, value: JSONValue) {
        precondition(Settings.setting(at: path) != nil, "\(path) is not a row of the settings table")
        (self.path, self.value, text) = (path, value, value.text)
    }

    /// Reads `path=value`.
    /// - Throws: `SessionError.usage` (64) for a missing `=`, or a path that is no field (with
    ///   the nearest field).
    public init(parsing argument: String) throws(SessionError) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw .usage("--set \(Quote.text(argument)) is not accepted; expected field=value, e.g. --set piano.count=8")
        }
        path = String(argument[..<equals])
        text = String(argument[argument.index(after: equals)...])
        value = (try? JSONParser.parse(Array(text.utf8))) ?? .string(text)
        if let hint = Settings.unknownFieldHint(path) {
            throw .usage("--set \(Quote.text(path)): no such preset field\(hint); the fields are listed in Presets/README.md and by clumsy run --help")
        }
    }
}
