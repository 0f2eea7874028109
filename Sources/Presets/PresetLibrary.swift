// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import FileOutput
import Text
import Vocabulary
#if canImport(Glibc)
import Glibc
#endif

/// Finds the bundled presets whatever the working directory, and resolves preset references.
///
/// Search order: `$CLUMSY_PRESETS`; `../share/clumsy/presets` beside an installed executable
/// (`make install`); `Presets/` found by walking up from the executable (covers
/// `.build/debug/clumsy` in a checkout); the source tree this binary was built from.
public enum PresetLibrary {
    /// Directories searched for bundled presets, in order; only existing ones.
    public static func directories(environment: [String: String] = ProcessInfoLite.environment) -> [String] {
        var candidates: [String] = []
        if let custom = environment["CLUMSY_PRESETS"], !custom.isEmpty { candidates.append(custom) }
        if let exe = executablePath() {
            // Installed (PREFIX/bin/clumsy): PREFIX/share/clumsy/presets; built in a checkout
            // (.build/…/clumsy): the checkout's Presets, a few levels up.
            candidates.append(parent(of: parent(of: exe)) + "/share/clumsy/presets")
            var dir = parent(of: exe)
            for _ in 0..<5 {
                candidates.append(dir + "/Presets")
                dir = parent(of: dir)
            }
        }
        // #filePath is Sources/Presets/PresetLibrary.swift in the checkout that built us.
        candidates.append(parent(of: parent(of: parent(of: #filePath))) + "/Presets")
        var seen: [String] = []
        for candidate in candidates where isDirectory(candidate) && !seen.contains(candidate) {
            if isFile(candidate + "/default.json") { seen.append(candidate) }
        }
        return seen
    }

    /// Bundled presets as (name, path), sorted by name, `default` first.
    public static func bundled() -> [(name: String, path: String)] {
        guard let directory = directories().first else { return [] }
        var found: [(name: String, path: String)] = []
        for name in DirectoryListing.names(in: directory) {
            guard name.hasSuffix(".json"), !name.hasPrefix(".") else { continue }
            found.append((String(name.dropLast(5)), directory + "/" + name))
        }
        return found.sorted { a, b in
            if a.name == "default" { return b.name != "default" }
            if b.name == "default" { return false }
            return a.name < b.name
        }
    }

    /// Loads a preset by bundled name or by file path (anything with a `/` or ending in `.json`,
    /// or an existing file).
    public static func load(_ reference: String) throws(SessionError) -> Preset {
        try Preset.load(path: locate(reference))
    }

    /// The file a preset reference names: the path itself, or the bundled preset's file.
    /// A bundled name may be written in any letter case and with `.json` (`Polska`,
    /// `polska.json`) when no file of that name is here.
    /// - Throws: `SessionError.noInput` for an unknown bundled name (with the nearest one), or
    ///   for a missing file whose name is a bundled preset's (saying to use the name).
    public static func locate(_ reference: String) throws(SessionError) -> String {
        if isFile(reference) { return reference }
        let presets = bundled()
        let stem = reference.hasSuffix(".json") ? String(reference.dropLast(5)) : reference
        let base = stem.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? stem
        let named = presets.first { $0.name == stem } ?? presets.first { $0.name.lowercased() == stem.lowercased() }
        if isPresetPath(reference) {
            guard !reference.contains("/"), let named else {
                if let bundledName = presets.first(where: { $0.name.lowercased() == base.lowercased() })?.name, !exists(reference) {
                    throw .noInput("\(Quote.text(reference)): no such file; \(bundledName) is a bundled preset, found from any directory by its name: \(bundledName)")
                }
                return reference
            }
            return named.path
        }
        if let named { return named.path }
        let names = presets.map(\.name)
        if presets.isEmpty {
            throw .noInput("no preset named \"\(Quote.text(reference))\", and the bundled presets were not found (set CLUMSY_PRESETS to the Presets directory)")
        }
        throw .noInput("no preset named \"\(Quote.text(reference))\"\(Suggestion.didYouMean(reference, in: names)); bundled presets: \(names.joined(separator: ", ")) (or give a path to a .json file)")
    }

    /// True when `reference` names a preset file rather than a bundled preset.
    public static func isPresetPath(_ reference: String) -> Bool {
        reference.contains("/") || reference.hasSuffix(".json") || isFile(reference)
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return PathBytes.string(buffer[0..<count].map { UInt8(bitPattern: $0) })
    }

    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path) { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// True when anything (file, directory, link) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path) { lstat($0, &info) } == 0
    }

    public static func isFile(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path) { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
