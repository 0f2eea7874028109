// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import Text

/// Writes an item's labels: `<name>.jams` (JAMS 0.3: namespaces `chord`, `key_mode`, `beat`,
/// `tempo`, `segment_open` (the form's sections, with a form) and `note_midi` per voice),
/// `<name>.chords.lab` (start, end, Harte chord: what
/// `mir_eval.io.load_labeled_intervals` reads) and `<name>.beats.txt` (one beat time a line:
/// `mir_eval.io.load_events`).
enum LabelFiles {
    /// The file names written, relative to the item's directory.
    static func names(of item: String) -> [String] {
        [item + ".jams", item + ".chords.lab", item + ".beats.txt"]
    }

    /// Writes the three files into `directory`. - Throws: `.cannotCreate` (73) / `.io` (74).
    static func write(_ labels: ItemLabels, item: String, into directory: String) throws(SessionError) {
        try FileBytes.writeAtomically(jams(labels, title: item), to: directory + "/" + item + ".jams")
        let lab = labels.chords.map { span -> String in
            guard case .string(let text) = span.value else { return "" }
            return Format.fixed(span.time, decimals: 6) + "\t" + Format.fixed(span.time + span.duration, decimals: 6) + "\t" + text + "\n"
        }
        try FileBytes.writeAtomically(lab.joined(), to: directory + "/" + item + ".chords.lab")
        let beats = labels.beats.map { Format.fixed($0.time, decimals: 6) + "\n" }
        try FileBytes.writeAtomically(beats.joined(), to: directory + "/" + item + ".beats.txt")
    }

    /// The JAMS document, one annotation per namespace (one `note_midi` per voice, its name in
    /// `annotation_metadata.annotator.voice`).
    static func jams(_ labels: ItemLabels, title: String) -> String {
        var annotations: [JSONValue] = [
            annotation("chord", labels.chords, labels.duration),
            annotation("key_mode", labels.keys, labels.duration),
            annotation("beat", labels.beats, labels.duration),
            annotation("tempo", labels.tempi, labels.duration),
        ]
        if !labels.sections.isEmpty { annotations.append(annotation("segment_open", labels.sections, labels.duration)) }
        for voice in labels.notes {
            annotations.append(annotation("note_midi", voice.spans, labels.duration, voice: voice.voice))
        }
        let metadata: JSONValue = .object([
            ("title", .string(title)), ("artist", .string("")), ("release", .string("")),
            ("duration", .number(labels.duration)), ("identifiers", .object([])), ("jams_version", .string("0.3.4")),
        ])
        return JSONText.of(.object([("annotations", .array(annotations)), ("file_metadata", metadata), ("sandbox", .object([]))])) + "\n"
    }

    private static func annotation(_ namespace: String, _ spans: [LabelSpan], _ duration: Double, voice: String? = nil) -> JSONValue {
        let data: [JSONValue] = spans.map {
            .object([("time", .number(rounded($0.time))), ("duration", .number(rounded($0.duration))),
                     ("value", $0.value), ("confidence", .number(1))])
        }
        let annotator: [(key: String, value: JSONValue)] = voice.map { [("voice", .string($0))] } ?? []
        let metadata: JSONValue = .object([
            ("curator", .object([("name", .string("")), ("email", .string(""))])),
            ("annotator", .object(annotator)), ("version", .string(Clumsy.version)), ("corpus", .string("")),
            ("annotation_tools", .string("clumsy \(Clumsy.version)")),
            ("annotation_rules", .string("exact: the values the session chose")), ("validation", .string("")),
            ("data_source", .string("program")),
        ])
        return .object([("annotation_metadata", metadata), ("namespace", .string(namespace)), ("data", .array(data)),
                        ("sandbox", .object([])), ("time", .number(0)), ("duration", .number(rounded(duration)))])
    }

    /// Seconds kept to microseconds, as the event log writes them.
    private static func rounded(_ seconds: Double) -> Double { (seconds * 1_000_000).rounded() / 1_000_000 }
}
