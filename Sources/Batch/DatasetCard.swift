// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Escaping
import Text
import Theory

/// `OUT/README.md`: what a batch holds, how it was made, the distribution of its keys, chords
/// and tempi (from the items' JAMS files, when labels were written) and how to remake an item.
enum DatasetCard {
    static func text(entries: [JSONValue], command: [String], directory: String) -> String {
        let stats = Statistics(entries: entries, directory: directory)
        var lines = ["# Dataset: \(entries.count) sessions of Clumsy \(Clumsy.version)", ""]
        lines += ["Each item is a directory named `<index>-<preset>-s<seed>`, holding what the batch asked for:",
                  "MIDI (`.mid`), the event log (`.jsonl`), audio, stems, and labels: JAMS (`.jams`: `chord` in Harte",
                  "syntax, `key_mode`, `beat` with bar positions, `tempo`, `note_midi` per voice, `segment_open` with a form), chords as",
                  "`.chords.lab` and beats as `.beats.txt` (both read by mir_eval). The labels are exact: they are",
                  "what the session chose, not an analysis. `manifest.jsonl` lists every item, its settings and",
                  "the sha256 of every file.", "", "## How it was made", "", "```",
                  "clumsy " + command.map(shellQuoted).joined(separator: " "), "```", ""]
        lines += ["Total length: \(Format.fixed(stats.seconds / 3600, decimals: 2)) hours (\(Format.plain(stats.seconds.rounded())) s).", ""]
        lines += table("Keys (items)", stats.keys) + table("Chords (seconds)", stats.chords)
            + table("Tempi, bpm (items)", stats.tempi, byValue: true)
        lines += ["## Regenerating an item", "", "Every item is deterministic: its `arguments` in `manifest.jsonl` remake it",
                  "byte for byte with the same Clumsy, FluidSynth and SoundFont, e.g.", "", "```"]
        if let first = entries.first, case .array(let arguments)? = JSONText.member("arguments", of: first) {
            let words = arguments.compactMap { value -> String? in if case .string(let s) = value { return s } else { return nil } }
            lines.append("clumsy run --midi item.mid --events item.jsonl " + words.map(shellQuoted).joined(separator: " "))
        }
        lines += ["```", ""]
        return lines.joined(separator: "\n")
    }

    /// A table of `counts`, the largest amount first; `byValue`: in the order of the values
    /// as numbers (tempi: 80.808 before 100.363).
    private static func table(_ title: String, _ counts: [String: Double], byValue: Bool = false) -> [String] {
        guard !counts.isEmpty else { return [] }
        var lines = ["## \(title)", "", "| value | amount |", "|---|---|"]
        let sorted = byValue
            ? counts.sorted { (Double($0.key) ?? .infinity, $0.key) < (Double($1.key) ?? .infinity, $1.key) }
            : counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        for (key, value) in sorted.prefix(24) { lines.append("| \(key) | \(Format.plain((value * 10).rounded() / 10)) |") }
        if sorted.count > 24 { lines.append("| (\(sorted.count - 24) more) | |") }
        return lines + [""]
    }

    /// A word as a POSIX shell reads it back (`Escape.shellWord`: per Unicode scalar).
    static func shellQuoted(_ word: String) -> String { Escape.shellWord(word) }

    /// Keys, chords and tempi over the items' JAMS files.
    struct Statistics {
        /// The root names the card counts chords under, by pitch class: one spelling per chord,
        /// whatever key spelled it (`A#:min7` and `Bb:min7` are one row, `Bb:min7`).
        static let rootNames = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]

        /// A Harte label with its root respelled by `rootNames` ("A#:min7" → "Bb:min7");
        /// anything else ("N", "X") as it is.
        static func oneSpelling(_ label: String) -> String {
            let root = label.prefix { $0 != ":" && $0 != "/" }
            guard let pitch = PitchClass(name: String(root)) else { return label }
            return rootNames[pitch.value] + label.dropFirst(root.count)
        }

        var keys: [String: Double] = [:]
        var chords: [String: Double] = [:]
        var tempi: [String: Double] = [:]
        var seconds = 0.0

        init(entries: [JSONValue], directory: String) {
            for entry in entries {
                guard let item = JSONText.string("item", of: entry) else { continue }
                let path = directory + "/" + item + "/" + item + ".jams"
                guard FileBytes.kind(path) == .file, let bytes = try? FileBytes.read(path, what: "JAMS file"),
                      let jams = try? JSONParser.parse(bytes) else { continue }
                add(jams)
            }
        }

        private mutating func add(_ jams: JSONValue) {
            guard case .array(let annotations)? = JSONText.member("annotations", of: jams) else { return }
            seconds += JSONText.member("file_metadata", of: jams).flatMap { JSONText.number("duration", of: $0) } ?? 0
            for annotation in annotations {
                guard case .array(let data)? = JSONText.member("data", of: annotation) else { continue }
                switch JSONText.string("namespace", of: annotation) {
                case "key_mode": if let first = data.first, let key = JSONText.string("value", of: first) { keys[key, default: 0] += 1 }
                case "tempo": if let first = data.first, let bpm = JSONText.number("value", of: first) { tempi[Format.plain(bpm), default: 0] += 1 }
                case "chord":
                    for span in data {
                        if let chord = JSONText.string("value", of: span) {
                            chords[Self.oneSpelling(chord), default: 0] += JSONText.number("duration", of: span) ?? 0
                        }
                    }
                default: continue
                }
            }
        }
    }
}
