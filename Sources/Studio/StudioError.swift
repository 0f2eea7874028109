// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

/// What can go wrong with a live MIDI port or an OSC socket.
public enum StudioError: Error, Equatable, CustomStringConvertible {
    /// A flag value that cannot work (bad address or port name).
    case usage(String)
    /// A server or device that is not there (no JACK server, no ALSA sequencer, port in use).
    case unavailable(String)
    /// The connection went away while the session ran.
    case io(String)

    public var description: String {
        switch self {
        case .usage(let message), .unavailable(let message), .io(let message): return message
        }
    }
}
