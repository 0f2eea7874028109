// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import Studio

/// `--live --audio-driver jack`: FluidSynth's JACK driver plays the sound and tells Clumsy
/// nothing when the server goes away, so the session would play on into a dead server. A client
/// of Clumsy's own with no ports (`clumsy-watch`, the shim's transport client: JACK's shutdown
/// callback and the count of its process cycles, `JackLiveness`) notices; as a control source
/// polled each step it then ends the session, whose files are completed, and the runner exits
/// with its failure (74, naming the server).
package final class JackServerWatch: ControlSource {
    private let client: JackTransport
    private let what: String
    /// Set when the server went away during the session.
    package private(set) var failure: SessionError?

    /// Opens the watch on the server `$JACK_DEFAULT_SERVER` (else `default`).
    package init(environment: [String: String]) throws(SessionError) {
        do {
            client = try JackTransport(clientName: "clumsy-watch", environment: environment)
        } catch {
            throw SessionError(error)
        }
        what = StudioError.jackServer(environment: environment)
    }

    package func poll(step: Int64, into controls: inout [Control]) -> Bool {
        if failure == nil && client.isGone { failure = SessionError(StudioError.wentAway(what)) }
        return failure == nil
    }

    /// Closes the client.
    package func close() { client.close() }
}
