// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Text
import Vocabulary

extension Preset {
    /// This preset with each assignment (`--set path=value`, a field's dotted path and the value
    /// as the preset file would hold it) read into its field as the preset file's value would
    /// be (a block such as `second` switched by true, false or null, or set by an object; a
    /// group such as `piano` set by an object of some of its fields), then
    /// the rules that tie fields together checked.
    /// - Throws: `SessionError.usage` (64) naming `--set`, the field and what is accepted.
    public func assigning(_ assignments: [(path: String, value: JSONValue)]) throws(SessionError) -> Preset {
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
