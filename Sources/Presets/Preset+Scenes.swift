// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Text
import Theory
import Vocabulary

extension Preset {
    /// A scene of the preset's `scenes` list: at a bar line, live controls take effect (gravity,
    /// speed, tempo, key, a drop, a kick, balls in or out, a voice's level), the same ones OSC drives, applied and logged alike.
    public struct Scene: Sendable, Equatable {
        /// The bar (1-based): of the session, or of section `section` when that is given.
        public var bar = 1
        /// The section (1-based, in the form's order, round and round) whose bar `bar` is; nil:
        /// `bar` counts from the start of the session.
        public var section: Int?
        /// The controls the scene sets, in the order they take effect at its bar line (the
        /// order of `Control.table`; a scene's levels in the order written).
        public var controls: [Control] = []

        /// Creates a scene at `bar` that changes nothing yet.
        public init(bar: Int = 1, section: Int? = nil) {
            self.bar = bar
            self.section = section
        }

        /// The most scenes a list may hold.
        public static let maximumCount = 256
        /// Bars (and sections) a scene may name: as many as `--bars` runs.
        public static let barRange = 1...100_000
        /// The controls an entry may set, in the order they take effect at its bar line (the
        /// controls table's rows that scenes may set).
        public static let controlFields = Control.table.filter(\.inScenes).map(\.name)
        /// The fields of one entry.
        static let fields = ["bar", "section"] + controlFields
        /// What `scenes` accepts, for the reference and the messages.
        public static let accepted = "a list of up to \(maximumCount) objects, each with \"bar\" (1-based) and/or \"section\" "
            + "(1-based, with a form) and any of \"gravity\", \"speed\", \"tempo\" (the ranges of those settings), "
            + "\"key\" {\"tonic\", \"scale\"}, \"drop\": true, \"kick\": true, \"lift\": true, \"balls\" (piano balls in play, 0…the preset's count), "
            + "\"level\" {voice: 0…127}; [] for none"

        /// Reads the `scenes` list: each entry's fields, named `scenes[i].field` in messages.
        static func readList(_ json: JSONValue, _ r: FieldReader) throws(SessionError) -> [Scene] {
            guard case .array(let items) = json else { throw r.fail("scenes", "expected an array (\(accepted)), found \(json.typeName)") }
            guard items.count <= maximumCount else { throw r.fail("scenes", "lists \(items.count) scenes; at most \(maximumCount)") }
            var list: [Scene] = []
            for (index, item) in items.enumerated() {
                // Each entry on its own: `clumsy validate` lists the problems of every one.
                try r.attempt { () throws(SessionError) in list.append(try read(item, at: "scenes[\(index)]", r)) }
            }
            return list
        }

        /// Reads one entry of the list at `path` ("scenes[0]"); every bad field is a problem of its own.
        static func read(_ json: JSONValue, at path: String, _ r: FieldReader) throws(SessionError) -> Scene {
            let members = try r.object(json, at: path, allowed: fields)
            var scene = Scene()
            for (name, value) in members {
                let field = path + "." + name
                try r.attempt { () throws(SessionError) in
                    switch name {
                    case "bar": scene.bar = try r.integer(value, at: field, range: barRange)
                    case "section": scene.section = try r.integer(value, at: field, range: barRange)
                    default: scene.controls += try controls(Control.row(named: name)!, value, at: field, r)
                    }
                }
            }
            // In the table's order, whatever the file's (a stable sort keeps the levels' order).
            let order = Control.table.map(\.name)
            scene.controls = scene.controls.enumerated().sorted { a, b in
                let (x, y) = (order.firstIndex(of: a.element.name)!, order.firstIndex(of: b.element.name)!)
                return x != y ? x < y : a.offset < b.offset
            }.map(\.element)
            guard members.contains(where: { $0.key == "bar" || $0.key == "section" }) else {
                throw r.fail(path + ".bar", "is missing; give \"bar\" (1-based: 1 is the first bar) or \"section\" (1-based, with a form)")
            }
            guard members.contains(where: { controlFields.contains($0.key) }) else {
                throw r.fail(path, "sets no control; give at least one of: \(controlFields.joined(separator: ", "))")
            }
            return scene
        }

        /// What the field of `row` sets, read by the row's shape: `true` for a control that takes
        /// nothing (`false` sets nothing), a number in its setting's range, a whole number in its
        /// range, a key object, a level object (one control a voice).
        private static func controls(_ row: ControlRow, _ value: JSONValue, at path: String, _ r: FieldReader) throws(SessionError) -> [Control] {
            switch row.shape {
            case .none(let control): return try r.boolean(value, at: path) ? [control] : []
            case .number(let quantity, let make): return [make(try number(value, at: path, quantity, r))]
            case .whole(let range, _, let make): return [make(try r.integer(value, at: path, range: range))]
            case .key: return try key(value, at: path, r).map { [.key($0)] } ?? []
            case .level: return try levels(value, at: path, r)
            }
        }

        /// `level`: an object from voice names (checked against the session's voices later) to CC7.
        private static func levels(_ value: JSONValue, at path: String, _ r: FieldReader) throws(SessionError) -> [Control] {
            guard case .object(let members) = value, !members.isEmpty else {
                throw r.fail(path, "expected an object from voice names to levels 0…127 such as {\"keys\": 90, \"bass\": 60}, found \(value.typeName)")
            }
            var list: [Control] = []
            for (voice, level) in members {
                try r.attempt { () throws(SessionError) in
                    list.append(.level(voice: voice, value: try r.integer(level, at: path + "." + voice, range: Control.levelRange)))
                }
            }
            return list
        }

        /// A number in the control's range (the flag's and OSC's: the settings table's row of the
        /// same name takes its range from `Limits` too).
        private static func number(_ value: JSONValue, at path: String, _ quantity: Limits.Quantity, _ r: FieldReader) throws(SessionError) -> Double {
            try r.number(value, at: path, range: quantity.range, accepted: Limits.text(quantity.range, unit: quantity.unit))
        }

        /// A key as the preset's `key` block writes it: {"tonic", "scale"}, both given. Nil when
        /// a problem of the tonic or the scale was kept (`clumsy validate` lists both).
        private static func key(_ value: JSONValue, at path: String, _ r: FieldReader) throws(SessionError) -> Key? {
            let members = try r.object(value, at: path, allowed: ["tonic", "scale"])
            var tonic: SpelledPitchClass?
            var scale: Scale?
            for field in ["tonic", "scale"] {
                try r.attempt { () throws(SessionError) in
                    guard let member = members.first(where: { $0.key == field })?.value else {
                        throw r.fail(path + "." + field, "is missing; a scene's key names its tonic and scale: {\"tonic\": \"D\", \"scale\": \"dorian\"}")
                    }
                    if field == "tonic" {
                        let name = try r.string(member, at: path + ".tonic", expected: "a note name such as \"C\", \"F#\" or \"Bb\"")
                        tonic = SpelledPitchClass(name: name)
                        guard tonic != nil else {
                            throw r.fail(path + ".tonic", "\"\(Quote.text(name))\" is not a note name; accepted: \(KeyNames.acceptedTonics)")
                        }
                    } else {
                        let mode = try r.string(member, at: path + ".scale", expected: "a scale name")
                        scale = Scale.named(mode)
                        guard scale != nil else {
                            throw r.fail(path + ".scale", "\"\(Quote.text(mode))\" is not a known scale\(Suggestion.didYouMean(mode, in: KeyNames.modeNames)); expected one of: \(KeyNames.acceptedModes)")
                        }
                    }
                }
            }
            guard let tonic, let scale else { return nil }
            return Key(spelledTonic: tonic, scale: scale)
        }
    }
}
