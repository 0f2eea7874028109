// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Text
import Vocabulary

/// `--set path=value`: any preset field from the command line, read exactly as the file's.
/// Code that holds a typed value (the plugin's ports) gives it as a `JSONValue`: nothing is
/// printed to text to be parsed back.
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
        guard Settings.setting(at: path) != nil || !Settings.children(of: path).isEmpty else {
            let paths = Settings.all.map(\.path)
            let hint = FieldReader.otherNames[path].map { " (did you mean \($0)?)" } ?? Suggestion.didYouMean(path, in: paths)
            throw .usage("--set \(Quote.text(path)): no such preset field\(hint); the fields are listed in Presets/README.md and by clumsy run --help")
        }
    }
}

extension Preset {
    /// This preset with each assignment read into its field as the preset file's value would
    /// be (a block such as `second` switched by true, false or null, or set by an object; a
    /// group such as `piano` set by an object of some of its fields), then
    /// the rules that tie fields together checked.
    /// - Throws: `SessionError.usage` (64) naming `--set`, the field and what is accepted.
    public func assigning(_ assignments: [FieldAssignment]) throws(SessionError) -> Preset {
        guard !assignments.isEmpty else { return self }
        var preset = self
        let r = FieldReader(file: "--set")
        do {
            for assignment in assignments {
                let value = assignment.value
                guard let setting = Settings.setting(at: assignment.path) else {
                    // A group of fields (`piano`, `keys.velocity`): an object of some of them.
                    try Self.readObject(value, at: assignment.path, into: &preset, r)
                    continue
                }
                guard setting.isSwitch else {
                    try setting.read(value, &preset, r)
                    continue
                }
                switch value {
                case .null, .bool(false): setting.switchTo(&preset, false)
                case .bool(true): setting.switchTo(&preset, true)
                default:
                    setting.switchTo(&preset, true)
                    try Self.readObject(value, at: assignment.path, into: &preset, r)
                }
            }
            try preset.checkRules(r)
        } catch {
            guard case .preset(_, let field, let message) = error else { throw error }
            throw .usage("--set \(field): \(message)")
        }
        return preset
    }
}
