// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// What can go wrong while drawing or encoding, with enough detail to act on.
public enum PictureError: Error, CustomStringConvertible, Equatable {
    /// Cairo reported an error (out of memory, an invalid size, a write that failed).
    case cairo(String)
    /// A required program (ffmpeg) is not installed; the message names the Debian package.
    case programMissing(String)
    /// The encoder could not be started, or it failed or exited early; the message holds its last words.
    case encoderFailed(String)
    /// Writing frames or files failed (disk full, broken pipe).
    case io(String)

    public var description: String {
        switch self {
        case .cairo(let message), .programMissing(let message), .encoderFailed(let message), .io(let message):
            return message
        }
    }
}
