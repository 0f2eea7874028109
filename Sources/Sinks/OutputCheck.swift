// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import FileOutput
import Text
#if canImport(Glibc)
import Glibc
#endif

/// Refuses, before a command writes anything, any output that would destroy an input or
/// another output. Every command that writes files calls `verify` (`run` and `replay` through
/// `SessionRunner`, `draw` and `roll` through `PictureRunner.open`).
///
/// Each output is resolved as it will be written (`OutputTarget`: links followed), then
/// compared by identity (device and inode: catches links, `..` and hard links) and by
/// canonical path (catches two names of a file not created yet) against the inputs — the
/// preset, the SoundFont, every file in the bundled presets directory (`$CLUMSY_PRESETS`) —
/// and against the other outputs. Outputs on the same special file (`/dev/null` twice) are
/// fine: nothing is lost there. A path that cannot be an output at all (missing directory,
/// a directory, a name over 255 bytes) is reported here too, as 73.
public enum OutputCheck {
    /// One named file: the flag or role that names it, and its path.
    public typealias Named = (role: String, path: String)

    /// Checks `outputs` against `inputs` (the command's own), every bundled preset and each other.
    /// - Throws: `SessionError.usage` (64) naming both files, or `.cannotCreate` (73).
    public static func verify(outputs: [Named], inputs: [Named]) throws(SessionError) {
        let inputs = inputs + bundledFiles()
        try checkStandardOutput(outputs)
        var resolved: [(role: String, path: String, target: OutputTarget)] = []
        for output in outputs {
            let target: OutputTarget
            do {
                target = try OutputTarget(path: output.path)
            } catch {
                throw .cannotCreate("\(output.role): \(error.description)")
            }
            for input in inputs {
                guard let identity = FileIdentity(path: input.path), identity == target.identity else { continue }
                throw .usage("\(output.role) \(Quote.text(output.path)) is \(input.role) \(Quote.text(input.path)): "
                    + "writing it would destroy it; choose another output name")
            }
            for other in resolved where !(target.isSpecial && other.target.isSpecial) {
                let sameFile = (target.identity != nil && target.identity == other.target.identity)
                    || PathBytes.bytes(target.canonicalPath) == PathBytes.bytes(other.target.canonicalPath)  // not String's ==: é ≠ e + ◌́ on disk
                if sameFile {
                    throw .usage("\(other.role) \(Quote.text(other.path)) and \(output.role) \(Quote.text(output.path)) "
                        + "name the same file; give each output its own file")
                }
            }
            resolved.append((output.role, output.path, target))
        }
    }

    /// `-` (standard output) names one output at most, and not a terminal: binary bytes on
    /// a terminal help no one, and two outputs in one stream cannot be told apart.
    static func checkStandardOutput(_ outputs: [Named], isTerminal: Bool = isatty(1) == 1) throws(SessionError) {
        let piped = outputs.filter { StandardOutputName.isStandardOutput($0.path) }
        if piped.count > 1 {
            throw .usage(piped.map { "\($0.role) \($0.path)" }.joined(separator: " and ")
                + ": only one output can go to standard output; name a file for the others")
        }
        if let output = piped.first, isTerminal {
            throw .usage("\(output.role) \(output.path): standard output is a terminal; "
                + "pipe it into a program or redirect it to a file, or name a file")
        }
    }

    /// Every file in the bundled presets directory in use (`$CLUMSY_PRESETS` when set).
    static func bundledFiles() -> [Named] {
        guard let directory = PresetFiles.bundledDirectory() else { return [] }
        return DirectoryListing.names(in: directory).map { ("a bundled preset", directory + "/" + $0) }
    }
}
