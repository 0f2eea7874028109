// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Text

/// What `clumsy batch merge` checks of each shard manifest entry before it joins the merged
/// manifest: that the entry is the item it is filed under (its index, preset and seed make the
/// item's name) and that every file it lists is in the item's directory, with its size and
/// sha256. A manifest is only a claim; the files are the truth.
enum ManifestCheck {
    /// Why `entry`, filed under `item`, cannot be merged, or nil when it can.
    static func problem(_ entry: JSONValue, item: String, directory: String) -> String? {
        guard case .number(let number, let exact)? = JSONText.member("index", of: entry),
              number >= 0, number < 1e9, number == number.rounded(), exact == nil,
              let preset = JSONText.string("preset", of: entry) else {
            return "its index or preset is not a batch's"
        }
        guard let seed = seed(of: entry), BatchItem(index: Int(number), preset: preset, seed: seed, settings: []).name == item else {
            return "its index, preset and seed do not make its name"
        }
        guard case .array(let files)? = JSONText.member("files", of: entry), !files.isEmpty else { return "it lists no files" }
        for file in files {
            guard let path = JSONText.string("path", of: file), isInside(path),
                  let sum = JSONText.string("sha256", of: file), let bytes = JSONText.number("bytes", of: file) else {
                return "a file of it is not a path in its directory with bytes and sha256"
            }
            let full = directory + "/" + item + "/" + path
            guard FileBytes.kind(full) == .file else { return "\(path) is missing" }
            guard Double(FileBytes.size(full)) == bytes, (try? FileBytes.sha256(full)) == sum else {
                return "\(path) is not the file rendered (its size or sha256 differs)"
            }
        }
        return nil
    }

    /// The entry's seed: a whole number, exact past 2^53.
    private static func seed(of entry: JSONValue) -> UInt64? {
        guard case .number(let number, let exact)? = JSONText.member("seed", of: entry) else { return nil }
        if let exact { return exact }
        return number >= 0 && number < 9e15 && number == number.rounded() ? UInt64(number) : nil
    }

    /// True for a relative path that stays inside its directory (no `..`, not absolute, no empty part).
    private static func isInside(_ path: String) -> Bool {
        !path.hasPrefix("/") && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }
}
