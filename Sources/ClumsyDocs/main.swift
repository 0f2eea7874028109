// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

// `make docs`: writes the settings reference into Presets/README.md and the flag
// declarations of `clumsy run` into Sources/clumsy/SettingFlags.swift, both from the
// settings table, and the OSC-in table of docs/studio.md from the controls table. Run from
// the package root.

import Presets
#if canImport(Glibc)
import Glibc
#endif

func readText(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func complain(_ message: String) {
    let bytes = Array("clumsy-docs: \(message)\n".utf8)
    _ = write(2, bytes, bytes.count)
}

func writeText(_ text: String, to path: String) {
    guard let file = fopen(path, "wb") else {
        complain("cannot write \(path)")
        exit(73)
    }
    let bytes = Array(text.utf8)
    let written = fwrite(bytes, 1, bytes.count, file)
    guard fclose(file) == 0, written == bytes.count else {
        complain("cannot write \(path)")
        exit(74)
    }
}

let readmePath = "Presets/README.md"
guard let readme = readText(readmePath), let updated = SettingsReference.updating(readme: readme) else {
    complain("\(readmePath) is missing or lacks the settings table markers")
    exit(66)
}
writeText(updated, to: readmePath)
writeText(SettingsReference.flagsSource(), to: "Sources/clumsy/SettingFlags.swift")
let studioPath = "docs/studio.md"
guard let studio = readText(studioPath), let studioUpdated = ControlsReference.updating(studio: studio) else {
    complain("\(studioPath) is missing or lacks the controls table markers")
    exit(66)
}
writeText(studioUpdated, to: studioPath)
print("wrote \(readmePath), Sources/clumsy/SettingFlags.swift and \(studioPath)")
