// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import Text
/// What a live log's session line may decide: the preset and the settings that shape the
/// notes, nothing else.
///
/// The line records them as `clumsy run` arguments (the preset, then `--flag value` pairs of
/// the settings table, and `--dry`), but they are read here as data against that allow-list and
/// never reach the argument parser: a log cannot name an output, live mode, a port or a server.
/// Those come only from the `clumsy replay` command line.
public struct ReplaySettings: Sendable, Equatable {
    /// A bundled preset's name or a preset file's path.
    public var preset: String
    /// The settings' texts (flag name without dashes → text) and `--dry`.
    public var overrides: Overrides

    /// The flags a session line may hold: the settings table's, then `--dry`.
    public static var acceptedFlags: [String] { ["--set"] + PresetField.flagged.map(\.flagName) + ["--dry"] }

    /// Reads a session line's `arguments`.
    /// - Throws: `SessionError.preset` (65) naming `file`, `line` and the first argument not accepted.
    public init(arguments: [String], file: String, line: Int) throws(SessionError) {
        func refuse(_ message: String) -> SessionError { .preset(file: file, field: "line \(line)", message: message) }
        guard let preset = arguments.first, !preset.isEmpty, !preset.hasPrefix("-") else {
            throw refuse("the session line's \"arguments\" must start with the preset (a bundled name or a file), not \(Format.jsonString(arguments.first ?? ""))")
        }
        self.preset = preset
        overrides = Overrides()
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--dry", !overrides.isDry {
                overrides.isDry = true
                continue
            }
            if argument == "--set" {
                guard index < arguments.count else { throw refuse("\"--set\" needs a field=value") }
                let assignment: FieldAssignment
                do { assignment = try FieldAssignment(parsing: arguments[index]) } catch { throw refuse(error.description) }
                guard !overrides.assignments.contains(where: { $0.path == assignment.path }) else {
                    throw refuse("\"--set \(assignment.path)\" is given twice")
                }
                overrides.assignments.append(assignment)
                index += 1
                continue
            }
            let setting = argument.hasPrefix("--") ? PresetField.flagged(String(argument.dropFirst(2))) : nil
            guard let flag = setting?.flag, overrides.flags[flag] == nil else {
                if argument == "--dry" || setting != nil { throw refuse("\(Format.jsonString(argument)) is given twice") }
                throw refuse("\(Format.jsonString(argument)) is not accepted in a session line: a log carries only the preset and the "
                    + "settings that shape the notes (\(Self.acceptedFlags.joined(separator: ", "))); outputs, live mode, "
                    + "ports and servers come from the replay's command line")
            }
            guard index < arguments.count else { throw refuse("\(Format.jsonString(argument)) needs a value") }
            overrides.flags[flag] = arguments[index]
            index += 1
        }
    }
}

/// A digest of what decides a session's notes: the preset file's bytes, the settings that
/// shape the notes and the timestep. A live log records it (`"plan"` in its session line) and
/// `clumsy replay` recomputes it, so an edited preset cannot make a replay differ unnoticed.
/// FNV-1a, 64 bits: cheap and deterministic; it detects changes, it does not authenticate.
public enum PlanDigest {
    /// The digest, as `fnv1a64:` and 16 hexadecimal digits.
    /// - Parameters:
    ///   - presetPath: the preset file (`PresetFiles.locate`).
    ///   - arguments: the session line's arguments; the first (the preset's name) is left out,
    ///     so a preset moved but unchanged keeps its digest.
    ///   - timestep: seconds per step.
    /// - Throws: what reading the preset throws (66 unreadable, 65 too large).
    public static func of(presetPath: String, arguments: [String], timestep: Double) throws(SessionError) -> String {
        var hash = FNV1a64()
        hash.add(try PresetFiles.bytes(presetPath))
        for argument in arguments.dropFirst() {
            hash.add([0])
            hash.add(Array(argument.utf8))
        }
        hash.add([0])
        hash.add((0..<8).map { UInt8(truncatingIfNeeded: timestep.bitPattern >> (8 * $0)) })
        let hex = String(hash.value, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Fowler–Noll–Vo 1a, 64 bits (the plan digest; `clumsy batch` draws its `--vary` values
    /// from streams keyed by it).
    public struct FNV1a64 {
        public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        public init() {}

        public mutating func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
    }
}
