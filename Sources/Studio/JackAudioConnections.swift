// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CJack
#if canImport(Glibc)
import Glibc
#endif

/// Connects the live synthesizer's JACK audio ports (`clumsy:left`, `clumsy:right`, which
/// FluidSynth's driver registers) to the inputs `--connect-audio` names, through a short-lived
/// client of its own: a connection outlives the client that made it.
public enum JackAudioConnections {
    /// Connects `sources` (left, right) to `destinations`: the first destination takes the
    /// left port, the second the right; a single destination takes both.
    /// - Throws: `.usage` naming the port JACK refused, `.unavailable` with no server.
    public static func connect(sources: [String], to destinations: [String], environment: [String: String]) throws(StudioError) {
        let server = JackMIDIOutput.serverName(environment: environment)
        var status: Int32 = 0
        guard let client = clumsy_jack_open_bare("clumsy-connect", &status) else {
            throw .noJackServer(server, status: status, for: "--connect-audio")
        }
        defer { jack_client_close(client) }
        let pairs: [(String, String)] = destinations.count == 1
            ? sources.map { ($0, destinations[0]) }
            : zip(sources, destinations).map { ($0, $1) }
        for (source, destination) in pairs {
            let result = jack_connect(client, source, destination)
            if result != 0 && result != EEXIST {
                throw .usage("--connect-audio \(destination): JACK cannot connect \(source) to it (no such audio input port on server \"\(server)\"; list them with `jack_lsp -t`)")
            }
        }
    }
}
