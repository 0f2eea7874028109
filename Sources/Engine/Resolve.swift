// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Presets

// The door between the preset format and everything after it: a command, the plugin, batch
// and the bench resolve a session here, find a preset's file here and read the fields they may
// override here. Only the resolver (this module) and the command line's preset commands import
// `Presets` (`Tools/modulegraph.py` fails otherwise).

extension SessionPlan {
    /// The one resolve step: the preset `reference` (a bundled name or a file) read and
    /// checked, `overrides` applied (`--set`, the flags, `--dry`, `--bars`), for a session of
    /// `duration` seconds (lengthened to the end of a phrase by an ending unless
    /// `overrides.isExact`); a scene the session cannot play is refused (`clumsy validate`
    /// lists every one apart, `sceneProblems(ofPreset:)`).
    /// - Throws: what reading the preset or an override throws (64, 65, 66), naming the file,
    ///   the field and what is accepted.
    public static func resolve(preset reference: String, overrides: Overrides = Overrides(), duration: Double) throws(SessionError) -> SessionPlan {
        SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load(reference), overrides: overrides, duration: duration))
    }

    /// This session run for its first `seconds` only (`clumsy draw --trace`): the steps cut
    /// there, the rest of the plan (the ending, the form) the whole session's.
    public func cut(at seconds: Double) -> SessionPlan {
        var plan = self
        plan.duration = seconds
        plan.stepCount = Configuration.stepCount(seconds, timestep: world.timestep)
        return plan
    }

    /// The problems of the preset's scenes that a session would refuse (after the preset reads
    /// without error), every one.
    public static func sceneProblems(ofPreset reference: String) throws(SessionError) -> [SessionError] {
        try Configuration(preset: try PresetLibrary.load(reference), duration: 1, checksScenes: false).sceneProblems()
    }
}

/// Where a preset's file is: the bundled library or a path.
public enum PresetFiles {
    /// The file a preset reference names: the path itself, or the bundled preset's file.
    /// - Throws: `SessionError.noInput` (66) for an unknown bundled name (with the nearest one).
    public static func locate(_ reference: String) throws(SessionError) -> String { try PresetLibrary.locate(reference) }

    /// True when `reference` names a preset file rather than a bundled preset.
    public static func isPath(_ reference: String) -> Bool { PresetLibrary.isPresetPath(reference) }

    /// The bundled presets' directory in use (`$CLUMSY_PRESETS` when set), if found.
    public static func bundledDirectory() -> String? { PresetLibrary.directories().first }

    /// A preset file's bytes, refusing one larger than a preset can be.
    /// - Throws: 66 unreadable, 65 too large.
    public static func bytes(_ path: String) throws(SessionError) -> [UInt8] { try Preset.readFile(path) }
}

/// A preset field as what overrides one sees it (`--vary`, a replayed session line): its row of
/// the settings table, the values it takes and its flag, read-only.
public struct PresetField: Sendable {
    /// Dotted path (`piano.count`).
    public let path: String
    /// Flag name without dashes (`gravity`), or nil.
    public let flag: String?
    /// What the value is written as (`number`, `integer`, `boolean`, …).
    public let type: String
    /// The accepted values, as messages show them.
    public let accepted: String
    /// The placeholder of the flag's value (`a|b|c` for a short list of choices).
    public let valueName: String
    /// A number's accepted range (nil for other kinds).
    public let numberRange: ClosedRange<Double>?

    init(_ setting: Setting) {
        (path, flag, type, accepted, valueName, numberRange)
            = (setting.path, setting.flag, setting.type, setting.accepted, setting.valueName, setting.numberRange)
    }

    /// `--flag`, or "" for a field without one.
    public var flagName: String { flag.map { "--" + $0 } ?? "" }

    /// The field at `path`, if any.
    public static func at(_ path: String) -> PresetField? { Settings.setting(at: path).map(PresetField.init) }

    /// The field whose flag is `flag` (without dashes), if any.
    public static func flagged(_ flag: String) -> PresetField? { Settings.setting(flag: flag).map(PresetField.init) }

    /// Every field with a flag, in table order.
    public static var flagged: [PresetField] { Settings.flagged.map(PresetField.init) }

    /// Every field's path, in table order (for "did you mean").
    public static var paths: [String] { Settings.all.map(\.path) }
}
