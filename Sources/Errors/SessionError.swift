// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// Everything that can stop a session, with the exit status the command line uses.
///
/// Exit statuses follow BSD `sysexits.h`: 64 usage, 65 data, 66 no input, 69 unavailable,
/// 70 software, 73 cannot create, 74 I/O; 130 and 143 for SIGINT and SIGTERM.
public enum SessionError: Error, CustomStringConvertible, Equatable {
    /// A flag value out of range or malformed.
    case usage(String)
    /// A preset file with a problem: file, JSON field path, what is wrong and what would be accepted.
    case preset(file: String, field: String, message: String)
    /// Input data that is not what it claims to be, outside any preset (a file named as a
    /// SoundFont that is truncated or not a SoundFont).
    case data(String)
    /// An unknown bundled preset name or a preset file that does not exist or cannot be read.
    case noInput(String)
    /// An output file that cannot be created (missing directory, no permission).
    case cannotCreate(String)
    /// A write failed while the session ran (disk full, I/O error).
    case io(String)
    /// A sound resource (SoundFont, audio device) is missing or unusable.
    case unavailable(String)
    /// A bug in Clumsy.
    case software(String)

    /// The process exit status for this error.
    public var exitStatus: Int32 {
        switch self {
        case .usage: return 64
        case .preset, .data: return 65
        case .noInput: return 66
        case .unavailable: return 69
        case .software: return 70
        case .cannotCreate: return 73
        case .io: return 74
        }
    }

    public var description: String {
        switch self {
        case .usage(let message): return message
        case .preset(let file, let field, let message):
            return field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)"
        case .data(let message), .noInput(let message), .cannotCreate(let message), .io(let message),
             .unavailable(let message), .software(let message):
            return message
        }
    }
}
