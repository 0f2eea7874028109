// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import MIDIFile

/// Why a file could not be analysed; each message names the file and what is wrong.
public enum AnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read (missing, unreadable). Exit status 66.
    case cannotRead(String)
    /// The bytes are not a usable Standard MIDI File (not MIDI, truncated, SMPTE timing). Exit status 65.
    case badData(String)

    /// Wraps a reader error, keeping its message (file, byte offset, reason).
    public init(_ error: MIDIFileError) {
        switch error {
        case .cannotRead: self = .cannotRead(error.description)
        default: self = .badData(error.description + "; expected a Standard MIDI File (format 0, 1 or 2, ticks per quarter note)")
        }
    }

    /// The message.
    public var description: String {
        switch self {
        case .cannotRead(let text), .badData(let text): text
        }
    }

    /// The exit status the README's table gives this error: 66 no input, 65 bad data.
    public var exitStatus: Int32 {
        switch self {
        case .cannotRead: 66
        case .badData: 65
        }
    }
}
