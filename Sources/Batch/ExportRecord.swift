// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Text

/// `KEY.json` of an exported item: what its `manifest.jsonl` entry says it is and, with labels,
/// the labels read from its JAMS file, in columns of one type each (a loader infers a column's
/// type from the first items: a time is always written with a decimal point, a bar position
/// always as a whole number, the settings as one JSON text whatever their fields).
///
/// `item`, `index`, `preset`, `preset_digest`, `seed`, `settings` (the JSON object of field
/// paths and values, as text), `arguments` (the `clumsy run` arguments that remake the item),
/// `clumsy` (its version); with labels `duration` (seconds), `key`, `chords`, `tempo` and
/// `sections` (spans: `time`, `duration`, `value`; a tempo's value in bpm, a section's its
/// letter), `beats` (`time`, `position`: 1…beats in the bar) and `jams` (the whole JAMS file,
/// with every voice's notes, as text).
enum ExportRecord {
    /// The column names, in the order written, and their types as the dataset card declares
    /// them (`DatasetCard`'s YAML): the manifest's, then the labels'.
    static let manifestColumns: [(name: String, type: ColumnType)] = [
        ("item", .string), ("index", .integer), ("preset", .string), ("preset_digest", .string), ("seed", .integer),
        ("settings", .string), ("arguments", .strings), ("clumsy", .string),
    ]
    static let labelColumns: [(name: String, type: ColumnType)] = [
        ("duration", .seconds), ("key", .spans(value: .string)), ("chords", .spans(value: .string)),
        ("tempo", .spans(value: .seconds)), ("sections", .spans(value: .string)), ("beats", .beats), ("jams", .string),
    ]

    /// A column's type.
    indirect enum ColumnType: Sendable {
        case string, integer, seconds, strings, beats
        case spans(value: ColumnType)
    }

    /// The record's text. - Throws: `.data` (65) for a JAMS file (at `path`) that is not JSON.
    static func text(_ entry: JSONValue, jams: [UInt8]?, path: String) throws(SessionError) -> String {
        var members: [(String, String)] = []
        for (name, _) in manifestColumns {
            let value = JSONText.member(name, of: entry) ?? .null
            members.append((name, name == "settings" ? Format.jsonString(JSONText.of(value)) : JSONText.of(value)))
        }
        if let jams {
            let json: JSONValue
            do { json = try JSONParser.parse(jams) } catch {
                throw .data("\(Quote.text(path)): its JAMS file is not JSON (\(error)); render the item again and merge")
            }
            let duration = JSONText.member("file_metadata", of: json).flatMap { JSONText.number("duration", of: $0) } ?? 0
            members.append(("duration", seconds(duration)))
            members.append(("key", spans(annotation("key_mode", of: json), value: .string)))
            members.append(("chords", spans(annotation("chord", of: json), value: .string)))
            members.append(("tempo", spans(annotation("tempo", of: json), value: .seconds)))
            members.append(("sections", spans(annotation("segment_open", of: json), value: .string)))
            let beats = annotation("beat", of: json).map { span in
                "{\"time\":" + seconds(JSONText.number("time", of: span) ?? 0)
                    + ",\"position\":" + String(Int((JSONText.number("value", of: span) ?? 0).rounded())) + "}"
            }
            members.append(("beats", "[" + beats.joined(separator: ",") + "]"))
            members.append(("jams", Format.jsonString(String(decoding: jams, as: UTF8.self))))
        }
        return "{" + members.map { Format.jsonString($0.0) + ":" + $0.1 }.joined(separator: ",") + "}\n"
    }

    /// The data of the first annotation of `namespace` (empty when there is none).
    private static func annotation(_ namespace: String, of jams: JSONValue) -> [JSONValue] {
        guard case .array(let annotations)? = JSONText.member("annotations", of: jams) else { return [] }
        for annotation in annotations where JSONText.string("namespace", of: annotation) == namespace {
            if case .array(let data)? = JSONText.member("data", of: annotation) { return data }
        }
        return []
    }

    private static func spans(_ data: [JSONValue], value type: ColumnType) -> String {
        let texts = data.map { span -> String in
            let value: String
            switch (type, JSONText.member("value", of: span)) {
            case (.seconds, .number(let number, _)?): value = seconds(number)
            case (_, .string(let text)?): value = Format.jsonString(text)
            case (_, let other?): value = Format.jsonString(JSONText.of(other))
            case (_, nil): value = "\"\""
            }
            return "{\"time\":" + seconds(JSONText.number("time", of: span) ?? 0) + ",\"duration\":"
                + seconds(JSONText.number("duration", of: span) ?? 0) + ",\"value\":" + value + "}"
        }
        return "[" + texts.joined(separator: ",") + "]"
    }

    /// A number of seconds (or bpm) with its decimal point, to microseconds: always a float to a reader.
    static func seconds(_ value: Double) -> String { Format.fixed(value, decimals: 6) }
}
