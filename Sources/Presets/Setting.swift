// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Text
import Theory
import Vocabulary

/// One user-settable value: where it lives in a preset, its flag, type, unit, default,
/// accepted values and a one-line doc.
///
/// The preset decoder, the flags of `clumsy run` (parsing, validation, `--help`), the error
/// messages and the reference table in `Presets/README.md` are all produced from the rows
/// of `Settings.all`; nothing else repeats a name, a default or a range.
public struct Setting: Sendable {
    /// Dotted JSON key path in a preset (`piano.radius`).
    public let path: String
    /// Long flag name of `clumsy run` without the dashes (`gravity`), or nil.
    public let flag: String?
    /// What the value is written as (`number`, `integer`, `note name`, …).
    public let type: String
    /// SI unit of the value, or "" for a plain number.
    public let unit: String
    /// The default as the reference shows it.
    public let defaultText: String
    /// The accepted values as the reference and the messages show them.
    public let accepted: String
    /// One line saying what the value does.
    public let doc: String
    /// The placeholder shown for the flag's value in `--help`.
    public let valueName: String
    /// True for a block such as `sound.filter` that `null` or `false` switches off.
    public let isSwitch: Bool
    /// True when the flag also takes `off`, switching its block off (a number switches it on).
    public let flagTakesOff: Bool
    /// The accepted range of a number row (nil for other kinds): what a live control of the
    /// same value (`/clumsy/gravity`, …) accepts too.
    public let numberRange: ClosedRange<Double>?

    let setDefault: @Sendable (inout Preset) -> Void
    let read: @Sendable (JSONValue, inout Preset, FieldReader) throws(SessionError) -> Void
    let parse: @Sendable (String, inout Preset) throws(SessionError) -> Void
    let isOn: @Sendable (Preset) -> Bool
    let switchTo: @Sendable (inout Preset, Bool) -> Void

    init(path: String, flag: String?, type: String, unit: String = "", defaultText: String, accepted: String,
         doc: String, valueName: String? = nil, isSwitch: Bool = false, flagTakesOff: Bool = false,
         numberRange: ClosedRange<Double>? = nil,
         setDefault: @escaping @Sendable (inout Preset) -> Void,
         read: @escaping @Sendable (JSONValue, inout Preset, FieldReader) throws(SessionError) -> Void,
         parse: @escaping @Sendable (String, inout Preset) throws(SessionError) -> Void = { _, _ in },
         isOn: @escaping @Sendable (Preset) -> Bool = { _ in true },
         switchTo: @escaping @Sendable (inout Preset, Bool) -> Void = { _, _ in }) {
        self.path = path
        self.flag = flag
        self.type = type
        self.unit = unit
        self.defaultText = defaultText
        self.accepted = accepted
        self.doc = doc
        self.valueName = valueName ?? (unit.isEmpty ? "x" : unit)
        self.isSwitch = isSwitch
        self.flagTakesOff = flagTakesOff
        self.numberRange = numberRange
        self.setDefault = setDefault
        self.read = read
        self.parse = parse
        self.isOn = isOn
        self.switchTo = switchTo
    }

    /// The flag as typed (`--gravity`), or "" when the setting has none.
    public var flagName: String { flag.map { "--" + $0 } ?? "" }

    /// The text of `--help` for the flag. A value in a switchable block that is off by default
    /// says so ("default off; 1500 Hz when on").
    public var help: String {
        let off = flagTakesOff ? ", or off" : ""
        var shownDefault = String(defaultText.filter { $0 != "`" })
        if let block = Settings.block(of: self), !block.isOn(Preset.defaults(name: "", source: "")) {
            shownDefault = "off; \(shownDefault)\(unit.isEmpty ? "" : " " + unit) when on"
        }
        return "\(doc.prefix(1).uppercased())\(doc.dropFirst()). Accepted: \(acceptedWithUnit)\(off); default \(shownDefault) (preset field \(path))."
    }

    /// The text of `--help` for the flag with a named preset's value in place of the default:
    /// the value its file gives, "off" for a block it switches off, or the default it keeps.
    public func help(in preset: JSONValue?, named name: String) -> String {
        guard let preset else { return help }
        var value = Self.member(at: path, in: preset).map(Self.shown)
        if let block = Settings.block(of: self) {
            let switched = Self.member(at: block.path, in: preset)
            let isOn = switched.map { $0 != .null && $0 != .bool(false) } ?? block.isOn(Preset.defaults())
            if !isOn { value = "off" }
        }
        let off = flagTakesOff ? ", or off" : ""
        let shown = value.map { "\($0)\(unit.isEmpty || $0 == "off" ? "" : " " + unit) in \(name)" } ?? "\(String(defaultText.filter { $0 != "`" })) (\(name) keeps the default)"
        return "\(doc.prefix(1).uppercased())\(doc.dropFirst()). Accepted: \(acceptedWithUnit)\(off); \(shown) (preset field \(path))."
    }

    /// The value at a dotted `path` of a preset's JSON, if it is there.
    static func member(at path: String, in json: JSONValue) -> JSONValue? {
        var value = json
        for key in path.split(separator: ".") {
            guard case .object(let members) = value, let next = members.first(where: { $0.key == key })?.value else { return nil }
            value = next
        }
        return value
    }

    /// A JSON value as help shows it: numbers plain, strings bare.
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .number(let number, let exact): return exact.map(String.init) ?? Format.plain(number)
        case .string(let text): return Quote.text(text)
        case .bool(let flag): return flag ? "on" : "off"
        default: return value.typeName
        }
    }

    /// Accepted range with the unit, for messages.
    var acceptedWithUnit: String { unit.isEmpty || accepted.first?.isNumber != true ? accepted : "\(accepted) \(unit)" }

    // MARK: Kinds of row

    /// A number in `range`; `flag` accepts the same range (NaN and infinities refused).
    static func number(_ path: String, _ keyPath: WritableKeyPath<Preset, Double> & Sendable, unit: String = "",
                       default value: Double, range: ClosedRange<Double>, flag: String? = nil, takesOff: Bool = false,
                       defaultText: String? = nil, accepted: String? = nil, valueName: String? = nil,
                       doc: String) -> Setting {
        let acceptedText = accepted ?? Limits.text(range)
        let shown = acceptedText + (unit.isEmpty ? "" : " \(unit)")
        return Setting(
            path: path, flag: flag, type: "number", unit: unit, defaultText: defaultText ?? Format.plain(value),
            accepted: acceptedText, doc: doc, valueName: valueName ?? (unit.isEmpty ? "x" : unit) + (takesOff ? "|off" : ""),
            flagTakesOff: takesOff, numberRange: range,
            setDefault: { $0[keyPath: keyPath] = value },
            read: { json, preset, r throws(SessionError) in
                preset[keyPath: keyPath] = try r.number(json, at: path, range: range, accepted: shown)
            },
            parse: { text, preset throws(SessionError) in
                guard let number = Double(text) else {
                    throw .usage("--\(flag ?? path) \(Quote.text(text)) is not a number; accepted: \(shown)\(takesOff ? ", or off" : "")")
                }
                guard number.isFinite else {
                    throw .usage("--\(flag ?? path) must be a finite number in \(shown), not \(text)")
                }
                guard range.contains(number) else {
                    throw .usage("--\(flag ?? path) \(Format.plain(number)) is out of range; accepted: \(shown)")
                }
                preset[keyPath: keyPath] = number
            })
    }

    /// A time in seconds in `range`, or a note value (`"3/16"`) kept at `note` and resolved at the
    /// session's tempo; seconds clear the note value, so a flag in seconds overrides a preset's note.
    static func secondsOrNote(_ path: String, _ keyPath: WritableKeyPath<Preset, Double> & Sendable,
                              note: WritableKeyPath<Preset, Double?> & Sendable, default value: Double,
                              range: ClosedRange<Double>, flag: String, doc: String) -> Setting {
        let seconds = number(path, keyPath, unit: "s", default: value, range: range, flag: flag, takesOff: true, doc: doc)
        let accepted = "\(Limits.text(range)) s, or \(NoteValue.accepted)"
        return Setting(
            path: path, flag: flag, type: "number or string", unit: "s", defaultText: seconds.defaultText,
            accepted: "seconds \(Limits.text(range)), or a note value n/d such as 3/16", doc: doc,
            valueName: "s|n/d|off", flagTakesOff: true, numberRange: range, setDefault: seconds.setDefault,
            read: { json, preset, r throws(SessionError) in
                guard case .string(let text) = json else {
                    try seconds.read(json, &preset, r)
                    preset[keyPath: note] = nil
                    return
                }
                guard let wholeNotes = NoteValue.wholeNotes(text) else {
                    throw r.fail(path, "\"\(Quote.text(text))\" is not accepted; expected \(accepted)")
                }
                preset[keyPath: note] = wholeNotes
            },
            parse: { text, preset throws(SessionError) in
                if let wholeNotes = NoteValue.wholeNotes(text) {
                    preset[keyPath: note] = wholeNotes
                } else if text.contains("/") {
                    throw .usage("--\(flag) \(Quote.text(text)) is not accepted; expected \(accepted)")
                } else {
                    try seconds.parse(text, &preset)
                    preset[keyPath: note] = nil
                }
            })
    }

    /// The three rows of a velocity curve at `path`: `quiet` and `loud` impact speeds in
    /// `unit` (loud must exceed quiet, see `Preset.checkRules`) and the `exponent`.
    static func curve(_ path: String, _ quiet: WritableKeyPath<Preset, Double> & Sendable,
                      _ loud: WritableKeyPath<Preset, Double> & Sendable, _ exponent: WritableKeyPath<Preset, Double> & Sendable,
                      unit: String, default values: (quiet: Double, loud: Double, exponent: Double), quietDoc: String) -> [Setting] {
        [.number(path + ".quiet", quiet, unit: unit, default: values.quiet, range: Limits.impactSpeed, doc: quietDoc),
         .number(path + ".loud", loud, unit: unit, default: values.loud, range: Limits.impactSpeed,
                 doc: "impact speed giving velocity 127 (greater than quiet)"),
         .number(path + ".exponent", exponent, default: values.exponent, range: Limits.exponent,
                 doc: "velocity curve exponent (1 = linear)")]
    }

    /// A whole number in `range`.
    static func integer(_ path: String, _ keyPath: WritableKeyPath<Preset, Int> & Sendable, default value: Int,
                        range: ClosedRange<Int>, flag: String? = nil, accepted: String? = nil, doc: String) -> Setting {
        let acceptedText = accepted ?? Limits.text(range)
        return Setting(
            path: path, flag: flag, type: "integer", defaultText: String(value), accepted: acceptedText, doc: doc,
            valueName: "n",
            setDefault: { $0[keyPath: keyPath] = value },
            read: { json, preset, r throws(SessionError) in
                preset[keyPath: keyPath] = try r.integer(json, at: path, range: range)
            },
            parse: { text, preset throws(SessionError) in
                guard let number = Int(text), range.contains(number) else {
                    throw .usage("--\(flag ?? path) \(Quote.text(text)) is not accepted; expected a whole number in \(Limits.text(range))")
                }
                preset[keyPath: keyPath] = number
            })
    }

    /// A seed: any whole number 0…2^64−1, kept exactly.
    static func seed(_ path: String, _ keyPath: WritableKeyPath<Preset, UInt64> & Sendable, default value: UInt64,
                     flag: String, doc: String) -> Setting {
        let accepted = "0…\(UInt64.max)"
        return Setting(
            path: path, flag: flag, type: "integer", defaultText: String(value), accepted: accepted, doc: doc,
            valueName: "n",
            setDefault: { $0[keyPath: keyPath] = value },
            read: { json, preset, r throws(SessionError) in preset[keyPath: keyPath] = try r.seed(json, at: path) },
            parse: { text, preset throws(SessionError) in
                guard let number = UInt64(text) else {
                    throw .usage("--\(flag) \(Quote.text(text)) is not accepted; expected a whole number \(accepted)")
                }
                preset[keyPath: keyPath] = number
            })
    }

    /// `true` or `false`.
    static func boolean(_ path: String, _ keyPath: WritableKeyPath<Preset, Bool> & Sendable, default value: Bool,
                        doc: String) -> Setting {
        Setting(path: path, flag: nil, type: "boolean", defaultText: String(value), accepted: "true, false", doc: doc,
                setDefault: { $0[keyPath: keyPath] = value },
                read: { json, preset, r throws(SessionError) in preset[keyPath: keyPath] = try r.boolean(json, at: path) })
    }

    /// Free text.
    static func text(_ path: String, _ keyPath: WritableKeyPath<Preset, String> & Sendable, default value: String,
                     defaultText: String? = nil, doc: String) -> Setting {
        Setting(path: path, flag: nil, type: "string", defaultText: defaultText ?? "`\"\(value)\"`", accepted: "any", doc: doc,
                setDefault: { $0[keyPath: keyPath] = value },
                read: { json, preset, r throws(SessionError) in preset[keyPath: keyPath] = try r.string(json, at: path) })
    }

    /// A file path that may not be empty; nil when absent.
    static func file(_ path: String, _ keyPath: WritableKeyPath<Preset, String?> & Sendable, doc: String) -> Setting {
        Setting(path: path, flag: nil, type: "string", defaultText: "none", accepted: "a non-empty path", doc: doc,
                setDefault: { $0[keyPath: keyPath] = nil },
                read: { json, preset, r throws(SessionError) in
                    let text = try r.string(json, at: path, expected: "a file path")
                    guard !text.isEmpty else { throw r.fail(path, "is empty; give a file path, or leave the field out") }
                    preset[keyPath: keyPath] = text
                })
    }

    /// Why a tone name is refused, when a hint helps: the nearest name (did you mean), or for
    /// the keys' tones the bass tone it is or is nearest to (`--tone` sets the keys' tone).
    private static func toneHint(_ name: String, _ path: String, _ names: [String]) -> String {
        let near = Suggestion.didYouMean(name, in: names)
        guard path != "bass.tone", near.isEmpty else { return near }
        if Tone.bass(named: name) != nil { return " (it is a bass tone: --bass-tone \(name))" }
        guard let bass = Suggestion.closest(to: name, in: Tone.bassCatalog.map(\.name)) else { return "" }
        return " (did you mean the bass tone \(bass)? --bass-tone \(bass))"
    }

    /// One of an enumeration's raw values (`--quantize 1/8` style when it has a flag).
    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ path: String, _ keyPath: WritableKeyPath<Preset, Value> & Sendable, default value: Value, flag: String? = nil,
        doc: String
    ) -> Setting where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        return Setting(path: path, flag: flag, type: "string", defaultText: "`\"\(value.rawValue)\"`",
                       accepted: names.joined(separator: ", "), doc: doc, valueName: names.joined(separator: "|"),
                       setDefault: { $0[keyPath: keyPath] = value },
                       read: { json, preset, r throws(SessionError) in
                           preset[keyPath: keyPath] = Value(rawValue: try r.choice(json, at: path, choices: names))!
                       },
                       parse: { text, preset throws(SessionError) in
                           guard let choice = Value(rawValue: text) else {
                               throw .usage("--\(flag ?? path) \(Quote.text(text)) is not accepted\(Suggestion.didYouMean(text, in: names)); expected one of: \(names.joined(separator: ", "))")
                           }
                           preset[keyPath: keyPath] = choice
                       })
    }

    /// A tone name from `catalog` (see `clumsy tones`).
    static func tone(_ path: String, _ keyPath: WritableKeyPath<Preset, String> & Sendable, default value: String,
                     catalog: [Tone], lookup: @escaping @Sendable (String) -> Tone?, what: String, flag: String? = nil,
                     doc: String) -> Setting {
        let catalogNames = catalog.map(\.name)
        let names = catalogNames.joined(separator: ", ")
        return Setting(
            path: path, flag: flag, type: "string", defaultText: "`\"\(value)\"`",
            accepted: "see `clumsy tones`, or the SoundFont's bank:program (`0:65`)",
            doc: doc, valueName: "name",
            setDefault: { $0[keyPath: keyPath] = value },
            read: { json, preset, r throws(SessionError) in
                let name = try r.string(json, at: path)
                guard lookup(name) != nil else { throw r.fail(path, "\"\(Quote.text(name))\" is not a \(what)\(toneHint(name, path, catalogNames)); expected one of: \(names), or the SoundFont's bank:program (bank 0…128, program 0…127, such as \"0:65\")") }
                preset[keyPath: keyPath] = name
            },
            parse: { text, preset throws(SessionError) in
                guard lookup(text) != nil else { throw .usage("--\(flag ?? path) \(Quote.text(text)) is not a \(what)\(toneHint(text, path, catalogNames)); accepted: \(names), or the SoundFont's bank:program (bank 0…128, program 0…127, such as 0:65)") }
                preset[keyPath: keyPath] = text
            })
    }

    /// A note name with octave in `range` (MIDI numbers).
    static func pitch(_ path: String, _ keyPath: WritableKeyPath<Preset, Pitch> & Sendable, default value: Int,
                      range: ClosedRange<Int>, doc: String) -> Setting {
        let accepted = "\(Pitch(midi: range.lowerBound).name)…\(Pitch(midi: range.upperBound).name)"
        return Setting(
            path: path, flag: nil, type: "note name", defaultText: "`\"\(Pitch(midi: value).name)\"`", accepted: accepted, doc: doc,
            setDefault: { $0[keyPath: keyPath] = Pitch(midi: value) },
            read: { json, preset, r throws(SessionError) in
                let text = try r.string(json, at: path, expected: "a note name with octave such as \"C3\" (\(accepted))")
                guard let pitch = Pitch(name: text), range.contains(pitch.midi) else {
                    throw r.fail(path, "\"\(Quote.text(text))\" is not accepted; expected a note name with octave from \(Pitch(midi: range.lowerBound).name) to \(Pitch(midi: range.upperBound).name), such as \"C3\"")
                }
                preset[keyPath: keyPath] = pitch
            })
    }

    /// A list of 1…`maximumCount` distinct whole numbers from `range`.
    static func list(_ path: String, _ keyPath: WritableKeyPath<Preset, [Int]> & Sendable, default value: [Int],
                     range: ClosedRange<Int>, maximumCount: Int, what: String, type: String, accepted: String,
                     doc: String) -> Setting {
        Setting(path: path, flag: nil, type: type, defaultText: "[\(value.map(String.init).joined(separator: ","))]",
                accepted: accepted, doc: doc,
                setDefault: { $0[keyPath: keyPath] = value },
                read: { json, preset, r throws(SessionError) in
                    preset[keyPath: keyPath] = try r.integerList(json, at: path, range: range, maximumCount: maximumCount, what: what)
                })
    }

    /// A block that `null` or `false` switches off; its fields are the rows under its path.
    static func block(_ path: String, _ keyPath: WritableKeyPath<Preset, Bool> & Sendable, default value: Bool,
                      doc: String) -> Setting {
        Setting(path: path, flag: nil, type: "object, or `null`/`false` = off", defaultText: value ? "on" : "off",
                accepted: "an object of the fields below", doc: doc, isSwitch: true,
                setDefault: { $0[keyPath: keyPath] = value },
                read: { _, _, _ in },
                isOn: { $0[keyPath: keyPath] },
                switchTo: { $0[keyPath: keyPath] = $1 })
    }

    /// A row with its own reading (values that are not a plain type, such as the key's tonic),
    /// and with a flag, its own parsing of the flag's text.
    static func custom(_ path: String, type: String, unit: String = "", defaultText: String, accepted: String,
                       flag: String? = nil, valueName: String? = nil, doc: String,
                       setDefault: @escaping @Sendable (inout Preset) -> Void,
                       read: @escaping @Sendable (JSONValue, inout Preset, FieldReader) throws(SessionError) -> Void,
                       parse: @escaping @Sendable (String, inout Preset) throws(SessionError) -> Void = { _, _ in }) -> Setting {
        Setting(path: path, flag: flag, type: type, unit: unit, defaultText: defaultText, accepted: accepted, doc: doc,
                valueName: valueName, setDefault: setDefault, read: read, parse: parse)
    }
}
