// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Text
import Vocabulary

extension Preset {
    /// A derived voice of the preset's `voices` list: it doubles every note of the voice it
    /// follows by a rule of its own, on its own tone, track and MIDI channel.
    public struct DerivedVoice: Sendable, Equatable {
        /// The voice a derived voice may follow.
        public enum Follows: String, Sendable, Equatable, CaseIterable {
            /// The piano balls' voice.
            case keys
            /// The bass ball's voice.
            case bass
        }

        /// The name in lower case: the event log's `voice`, the stem's file name; its MIDI
        /// track name is the same with a capital first letter ("third" → "Third").
        public var name: String
        /// The voice it doubles.
        public var follows: Follows
        /// Which note it plays with each note of `follows`.
        public var rule: VoiceRule
        /// Tone name (keys catalog, `clumsy tones`).
        public var tone: String
        /// Channel volume, MIDI CC7 0…127.
        public var level: Int

        /// Creates a derived voice.
        public init(name: String, follows: Follows, rule: VoiceRule, tone: String = "vibraphone", level: Int = 80) {
            self.name = name
            self.follows = follows
            self.rule = rule
            self.tone = tone
            self.level = level
        }

        /// The MIDI track name: the name with a capital first letter.
        public var trackName: String { name.prefix(1).uppercased() + name.dropFirst() }

        /// The most derived voices a list may hold: the MIDI channels left beside the bass,
        /// five pan zones of keys, the drums' channel 10 and the second voice.
        public static let maximumCount = 8
        /// Names the other voices of a session use.
        public static let reservedNames = ["bass", "keys", "drums", "second", "melody"]
        /// The fields of one entry.
        static let fields = ["name", "follows", "interval", "semitones", "tone", "level"]
        /// What `voices` accepts, for the reference and the messages.
        public static let accepted = "a list of up to \(maximumCount) objects {\"name\", \"follows\", \"interval\" or \"semitones\", \"tone\", \"level\"}; [] for none"

        /// Reads the `voices` list: each entry's fields, named `voices[i].field` in messages.
        static func readList(_ json: JSONValue, _ r: FieldReader) throws(SessionError) -> [DerivedVoice] {
            guard case .array(let items) = json else { throw r.fail("voices", "expected an array (\(accepted)), found \(json.typeName)") }
            guard items.count <= maximumCount else { throw r.fail("voices", "lists \(items.count) voices; at most \(maximumCount)") }
            var list: [DerivedVoice] = []
            var entries: [Int] = []   // the entry of each voice of `list`
            for (index, item) in items.enumerated() {
                // Each entry on its own: `clumsy validate` lists the problems of every one.
                try r.attempt { () throws(SessionError) in
                    let voice = try read(item, at: "voices[\(index)]", r)
                    if let other = list.firstIndex(where: { $0.name == voice.name }) {
                        throw r.fail("voices[\(index)].name", "\"\(voice.name)\" is already the name of voices[\(entries[other])]; each voice needs a name of its own")
                    }
                    list.append(voice)
                    entries.append(index)
                }
            }
            return list
        }

        /// Reads one entry of the list at `path` ("voices[0]").
        static func read(_ json: JSONValue, at path: String, _ r: FieldReader) throws(SessionError) -> DerivedVoice {
            let members = try r.object(json, at: path, allowed: fields)
            func member(_ name: String) -> JSONValue? { members.first { $0.key == name }?.value }
            guard let nameValue = member("name") else {
                throw r.fail(path + ".name", "is missing; give the voice a name such as \"third\" (lower-case letters, digits and -)")
            }
            let name = try r.string(nameValue, at: path + ".name")
            guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.count <= 24,
                  name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
                throw r.fail(path + ".name", "\"\(Quote.text(name))\" is not accepted; expected 1…24 lower-case letters, digits and -, starting with a letter (\"third\")")
            }
            guard !reservedNames.contains(name) else {
                throw r.fail(path + ".name", "\"\(name)\" is the name of another voice (\(reservedNames.joined(separator: ", "))); choose another")
            }
            let follows = try member("follows").map { value throws(SessionError) in
                Follows(rawValue: try r.choice(value, at: path + ".follows", choices: Follows.allCases.map(\.rawValue)))!
            } ?? .keys
            let rule = try readRule(interval: member("interval"), semitones: member("semitones"), at: path, r)
            var tone = "vibraphone"
            if let value = member("tone") {
                tone = try r.string(value, at: path + ".tone")
                guard Tone.keys(named: tone) != nil else {
                    throw r.fail(path + ".tone", "\"\(Quote.text(tone))\" is not a tone\(Suggestion.didYouMean(tone, in: Tone.keysCatalog.map(\.name))); expected one of: \(Tone.keysCatalog.map(\.name).joined(separator: ", "))")
                }
            }
            let level = try member("level").map { value throws(SessionError) in try r.integer(value, at: path + ".level", range: 0...127) } ?? 80
            return DerivedVoice(name: name, follows: follows, rule: rule, tone: tone, level: level)
        }

        /// The rule of an entry: exactly one of `interval` (diatonic) and `semitones`.
        static func readRule(interval: JSONValue?, semitones: JSONValue?, at path: String, _ r: FieldReader) throws(SessionError) -> VoiceRule {
            let diatonic = VoiceRule.diatonicRange, chromatic = VoiceRule.semitoneRange
            switch (interval, semitones) {
            case (let value?, nil):
                let steps = try r.integer(value, at: path + ".interval", range: -diatonic.upperBound...diatonic.upperBound)
                guard diatonic.contains(abs(steps)) else {
                    throw r.fail(path + ".interval", "\(steps) is not accepted; expected a diatonic interval \(diatonic.lowerBound)…\(diatonic.upperBound) above or -\(diatonic.upperBound)…-\(diatonic.lowerBound) below (3 a third above, -6 a sixth below, 8 an octave)")
                }
                return .diatonic(steps)
            case (nil, let value?):
                let count = try r.integer(value, at: path + ".semitones", range: -chromatic.upperBound...chromatic.upperBound)
                guard count != 0 else { throw r.fail(path + ".semitones", "0 is not accepted; expected -24…-1 or 1…24 semitones (a voice doubling at the unison is the same notes)") }
                return .semitones(count)
            case (nil, nil):
                throw r.fail(path + ".interval", "is missing; give \"interval\" (a diatonic interval: 3 a third above, -6 a sixth below) or \"semitones\" (7 a fifth above)")
            case (_?, _?):
                throw r.fail(path + ".semitones", "cannot be given with \"interval\"; give one rule: \"interval\" (diatonic) or \"semitones\" (fixed)")
            }
        }
    }
}
