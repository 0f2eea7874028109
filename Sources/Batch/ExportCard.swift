// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Text

/// `OUT/README.md` of an export: YAML front matter a dataset hub reads (the shards as the
/// `default` config's `train` split, and every column's type, so that a loader does not guess
/// them from the first items), what the shards hold and how to load them, then the batch's own
/// card (`DatasetCard`: how it was made, its keys, chords and tempi, how to remake an item).
/// Nothing of the user's goes into the front matter: its names are the export's own.
enum ExportCard {
    static func text(items: Int, shards: Int, shardSize: Int, fields: Set<String>, batchCard: [UInt8]?) -> String {
        let audio = BatchExport.audioExtensions.filter { fields.contains($0) }
        var lines = ["---", "configs:", "- config_name: default", "  data_files:", "  - split: train", "    path: data/train-*.tar",
                     "dataset_info:", "  features:", "  - name: __key__", "    dtype: string", "  - name: __url__", "    dtype: string"]
        for field in audio { lines += ["  - name: \(field)", "    dtype: audio"] }
        if fields.contains("mid") { lines += ["  - name: mid", "    dtype: binary"] }
        lines += ["  - name: json", "    struct:"]
        let columns = ExportRecord.manifestColumns + (fields.contains("jams") ? ExportRecord.labelColumns : [])
        for (name, type) in columns { lines += column(name, type, indent: "    ") }
        lines += ["tags:", "- music", "- midi", "- synthetic", "---", ""]
        let parts = (["`KEY.json`"] + (fields.contains("mid") ? ["`KEY.mid` (Standard MIDI File)"] : []) + audio.map { "`KEY.\($0)`" })
        lines += ["# \(items) sessions of Clumsy \(Clumsy.version), as WebDataset shards", "",
                  "`data/train-00000.tar` … `data/\(BatchExport.shardName(shards - 1))`: \(shards) shard\(shards == 1 ? "" : "s") of up to \(shardSize) items,",
                  "plain tar files in which each item's files lie side by side under its key (its name in the batch,",
                  "`00004-lydian-moon-s2`): " + parts.joined(separator: ", ") + ". `KEY.json` holds the item's",
                  "`preset`, `seed`, `settings` (a JSON object as text) and the `arguments` that remake it.",
        ]
        if fields.contains("jams") {
            lines += ["Its labels are exact, what the session chose: `key`, `chords`, `tempo` and `sections` (spans: `time`,",
                      "`duration` in seconds, `value`: a key_mode key, a Harte chord, bpm, a section's letter), `beats` (`time`,",
                      "`position` in the bar), `duration`, and the whole JAMS file as text (`jams`, every voice's notes too)."]
        }
        lines += ["", "```python", "from datasets import load_dataset", "dataset = load_dataset(\"path/to/this/directory\", split=\"train\")",
                  "```", "", "or stream the shards with any WebDataset reader; every file in them is the batch's, checked",
                  "against its sha256 when exported.", ""]
        if let batchCard {
            let card = String(decoding: batchCard, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if let start = card.firstIndex(of: "## How it was made") { lines += card[start...].map(String.init) }
        }
        return lines.joined(separator: "\n")
    }

    /// A column of the `json` struct in the YAML of `datasets`' features.
    private static func column(_ name: String, _ type: ExportRecord.ColumnType, indent: String) -> [String] {
        func dtype(_ type: ExportRecord.ColumnType) -> String {
            switch type {
            case .integer: return "int64"
            case .seconds: return "float64"
            default: return "string"
            }
        }
        switch type {
        case .string, .integer, .seconds: return [indent + "- name: \(name)", indent + "  dtype: \(dtype(type))"]
        case .strings: return [indent + "- name: \(name)", indent + "  list: string"]
        case .beats:
            return [indent + "- name: \(name)", indent + "  list:", indent + "  - name: time", indent + "    dtype: float64",
                    indent + "  - name: position", indent + "    dtype: int64"]
        case .spans(let value):
            return [indent + "- name: \(name)", indent + "  list:", indent + "  - name: time", indent + "    dtype: float64",
                    indent + "  - name: duration", indent + "    dtype: float64", indent + "  - name: value", indent + "    dtype: \(dtype(value))"]
        }
    }
}
