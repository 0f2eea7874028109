// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Everything that can go wrong while producing an output file.
///
/// Every case carries the path the caller asked for (never the hidden
/// temporary name) and `reason`, the operating system's error text
/// (`strerror`), optionally prefixed with the step that failed.
public enum FileOutputError: Error, CustomStringConvertible, Equatable {
    /// The temporary file next to `path` could not be created, typically
    /// because the directory is missing or not writable.
    case cannotCreate(path: String, reason: String)
    /// Writing (or closing, which can report deferred write errors) failed,
    /// for example with "No space left on device".
    case writeFailed(path: String, reason: String)
    /// The finished temporary file could not be renamed over `path`.
    case commitFailed(path: String, reason: String)

    /// The output path the caller asked for.
    public var path: String {
        switch self {
        case .cannotCreate(let path, _), .writeFailed(let path, _), .commitFailed(let path, _):
            return path
        }
    }

    /// The operating system's error text, possibly prefixed with the step that failed.
    public var reason: String {
        switch self {
        case .cannotCreate(_, let reason), .writeFailed(_, let reason), .commitFailed(_, let reason):
            return reason
        }
    }

    /// A one-line message naming the file and saying what went wrong.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            let hint = reason.hasPrefix("the ") || reason.hasPrefix("a ") || reason.hasPrefix("too many") ? "" : " (its directory must exist and be writable)"
            return "cannot create output file '\(path)': \(reason)\(hint)"
        case .writeFailed(let path, let reason) where StandardOutputName.isStandardOutput(path):
            let early = reason.contains("Broken pipe") ? " (the program reading it stopped early)" : ""
            return "cannot write to standard output: \(reason)\(early)"
        case .writeFailed(let path, let reason):
            return "cannot write output file '\(path)': \(reason)"
        case .commitFailed(let path, let reason):
            return "cannot move the finished output into place at '\(path)': \(reason)"
        }
    }
}
