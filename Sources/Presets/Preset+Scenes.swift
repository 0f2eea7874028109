// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
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
        /// Gravity on the piano balls from then on, m/s².
        public var gravity: Double?
        /// The bass ball's speed from then on, m/s.
        public var speed: Double?
        /// Tempo from then on, bpm.
        public var tempo: Double?
        /// The key from then on.
        public var key: Key?
        /// Drop every piano ball again from the top.
        public var drop = false
        /// Kick the bass ball off in a new direction.
        public var kick = false
        /// Piano balls in play from then on (0…the session's count; the others leave the world).
        public var balls: Int?
        /// Voices' channel volumes from then on, in the order written.
        public var levels: [Level] = []

        /// A voice's channel volume (MIDI CC7) in a scene: the voice by its event-log name.
        public struct Level: Sendable, Equatable {
            /// The voice's event-log name (`bass`, `keys`, `second`, `drums`, a derived voice's).
            public var voice: String
            /// CC7, 0…127.
            public var value: Int
        }

        /// Creates a scene at `bar` that changes nothing yet.
        public init(bar: Int = 1, section: Int? = nil) {
            self.bar = bar
            self.section = section
        }

        /// The most scenes a list may hold.
        public static let maximumCount = 256
        /// Piano balls a scene may put in play (the `piano.count` row's range; at most the
        /// session's own count, checked with the whole session).
        public static let ballsRange = 0...1000
        /// Bars (and sections) a scene may name: as many as `--bars` runs.
        public static let barRange = 1...100_000
        /// The controls an entry may set, in the order they take effect at its bar line.
        public static let controlFields = ["gravity", "speed", "kick", "drop", "tempo", "key", "level", "balls"]
        /// The fields of one entry.
        static let fields = ["bar", "section"] + controlFields
        /// What `scenes` accepts, for the reference and the messages.
        public static let accepted = "a list of up to \(maximumCount) objects, each with \"bar\" (1-based) and/or \"section\" "
            + "(1-based, with a form) and any of \"gravity\", \"speed\", \"tempo\" (the ranges of those settings), "
            + "\"key\" {\"tonic\", \"scale\"}, \"drop\": true, \"kick\": true, \"balls\" (piano balls in play, 0…the preset's count), "
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
                    case "gravity": scene.gravity = try number(value, at: field, setting: "gravity", r)
                    case "speed": scene.speed = try number(value, at: field, setting: "speed", r)
                    case "tempo": scene.tempo = try number(value, at: field, setting: "tempo", r)
                    case "key": scene.key = try key(value, at: field, r)
                    case "drop": scene.drop = try r.boolean(value, at: field)
                    case "kick": scene.kick = try r.boolean(value, at: field)
                    case "balls": scene.balls = try r.integer(value, at: field, range: ballsRange)
                    default: scene.levels = try levels(value, at: field, r)
                    }
                }
            }
            guard members.contains(where: { $0.key == "bar" || $0.key == "section" }) else {
                throw r.fail(path + ".bar", "is missing; give \"bar\" (1-based: 1 is the first bar) or \"section\" (1-based, with a form)")
            }
            guard members.contains(where: { controlFields.contains($0.key) }) else {
                throw r.fail(path, "sets no control; give at least one of: \(controlFields.joined(separator: ", "))")
            }
            return scene
        }

        /// `level`: an object from voice names (checked against the session's voices later) to CC7.
        private static func levels(_ value: JSONValue, at path: String, _ r: FieldReader) throws(SessionError) -> [Level] {
            guard case .object(let members) = value, !members.isEmpty else {
                throw r.fail(path, "expected an object from voice names to levels 0…127 such as {\"keys\": 90, \"bass\": 60}, found \(value.typeName)")
            }
            var list: [Level] = []
            for (voice, level) in members {
                try r.attempt { () throws(SessionError) in
                    list.append(Level(voice: voice, value: try r.integer(level, at: path + "." + voice, range: 0...127)))
                }
            }
            return list
        }

        /// A number in the range of the settings table's row `setting` (the flag's and OSC's range).
        private static func number(_ value: JSONValue, at path: String, setting: String, _ r: FieldReader) throws(SessionError) -> Double {
            let row = Settings.setting(at: setting)!
            let range = row.numberRange!
            return try r.number(value, at: path, range: range, accepted: Limits.text(range, unit: row.unit))
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
                            throw r.fail(path + ".tonic", "\"\(Quote.text(name))\" is not a note name; accepted: \(Settings.acceptedTonics)")
                        }
                    } else {
                        let mode = try r.string(member, at: path + ".scale", expected: "a scale name")
                        scale = Scale.named(mode)
                        guard scale != nil else {
                            throw r.fail(path + ".scale", "\"\(Quote.text(mode))\" is not a known scale\(Suggestion.didYouMean(mode, in: Settings.modeNames)); expected one of: \(Scale.catalogNames.joined(separator: ", "))")
                        }
                    }
                }
            }
            guard let tonic, let scale else { return nil }
            return Key(spelledTonic: tonic, scale: scale)
        }
    }
}
