// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Errors
import Performance
import Text

/// How the host's position differs from the session's.
enum Jump: Equatable {
    case skip(Int64)
    case relocation
}

/// A rebuild: the host's position (beats since its bar 0, of its beat unit), its tempo and the
/// controls the session is built with (a relocation, or a control port that needs a rebuild).
struct Seek: Equatable {
    var beats: Double
    var bpm: Double
    var controls: PluginControls
    /// Session seconds of the position, the tempo held from the start.
    var time: Double { beats * 60 / bpm }
}

/// Relocation: when the host's position jumps (or the transport starts somewhere other than
/// where the session stopped), the session is built again and simulated from the start to that
/// position on the worker thread (deterministic: the same bar always plays the same notes under
/// the same seed). Meanwhile the plugin is silent and counts the frames; the new session is
/// adopted between two blocks and catches up with the host, dropping what fell in the gap.
///
/// Real-time side: `relocate`, `takeSeek` and `adopt` only move references and numbers.
/// Worker side: `prepare` builds, simulates, and releases the session a relocation replaced.
extension PluginEngine {
    /// Beats the host may be off the session's count before it counts as a relocation.
    static let beatTolerance = 0.01

    /// Where `position` is against the session: where the frames run since the last position
    /// lead (`nil`), a little ahead of it (a skip: the host lost cycles, an xrun), or elsewhere
    /// (a relocation). Without frames, its beats against the session's count decide.
    func jump(_ position: HostPosition) -> Jump? {
        if let frame = position.frame, let expected = hostFrame {
            let ahead = frame - expected
            if abs(ahead) <= 1 { return nil }
            return ahead > 0 && ahead <= Int64(rate * Self.skipLimit) ? .skip(ahead) : .relocation
        }
        guard let host = position.beats else { return nil }
        return abs(host - beats) > Self.beatTolerance ? .relocation : nil
    }

    /// A host's frames ahead of the session by at most this many seconds are a skip, not a jump.
    static let skipLimit = 1.0

    /// The host ran `frames` frames the session did not (an xrun): the session runs them at the
    /// next block without playing their notes (note-offs of sounding notes apart), as it catches
    /// up after a relocation, and stays on the host's frames.
    func skip(_ frames: Int64) {
        if isSeeking { framesSinceSeek += frames } else { frame += frames }
        beats += Double(frames) / rate * tempo / 60
    }

    /// The host is at `host` beats: end the sounding notes and ask the worker for that position
    /// (built with the controls wanted now).
    func relocate(to host: Double, at offset: UInt32) {
        guard let wanted else { return }
        stop(at: offset)
        beats = host
        seek = Seek(beats: host, bpm: tempo, controls: wanted)
        framesSinceSeek = 0
    }

    /// The relocation to hand to the worker, once (nil while one is being worked on).
    func takeSeek() -> Seek? {
        guard !isWorking, let seek, seek != unbuildable else { return nil }
        isWorking = true
        worked = seek
        return seek
    }

    /// Worker thread: releases the replaced session, builds the session again and simulates it
    /// to `seek` (its notes are not played). Not real-time.
    func prepare(_ seek: Seek) {
        retired = nil
        retiredRouter = nil
        let fresh: Simulator
        do throws(SessionError) {
            fresh = try Self.session(seek.controls, presetPaths: presetPaths)
        } catch {
            report(error)   // the worker thread may write; the plugin stays silent until a new seek
            return
        }
        let reach = Self.reach(balls: fresh.world.ballCount)
        guard seek.time.isFinite, abs(seek.time) <= reach else {
            // Silent until the host moves back within reach (bar 1e9 or ∞ would take days; a
            // position as far before bar 0 would overflow the frame count at adopt()).
            reportFar(seek.time, reach: reach)
            return
        }
        fresh.fastForward(to: seek.time, tempo: seek.bpm)
        prepared = (fresh, NoteRouter(voices: fresh.plan.voices), seek)
    }

    /// Session seconds a rebuild simulates at most: an hour for up to 16 balls, less in
    /// proportion for more (the cost of a step grows with the balls), so a jump costs the
    /// worker (or a host without one, inside `run()`) a bounded time. Farther, the plugin stays
    /// silent until the host's position is back within reach.
    static func reach(balls: Int) -> Double {
        reachBallSeconds / Double(max(balls, 16))
    }

    /// Ball-seconds of simulation a rebuild may cost (3 600 s × 16 balls).
    static let reachBallSeconds = 3600.0 * 16

    private func reportFar(_ time: Double, reach: Double) {
        let position = time.isFinite ? Format.plain(time.rounded()) + " s" : "an endless position"
        report(SessionError.usage("the host's position (\(position) into the session) is past the plugin's reach of "
            + Format.plain(reach.rounded()) + " s: silent until the transport moves back within it"))
    }

    /// Audio thread, between blocks: the worker's session replaces the playing one. It plays
    /// from its position plus the frames the host ran meanwhile, unless a newer relocation came.
    func adopt() {
        isWorking = false
        guard let prepared else {
            unbuildable = worked   // the worker could not build it (and said why): not asked again
            return
        }
        retired = simulator
        simulator = prepared.simulator
        retiredRouter = router
        router = prepared.router
        self.prepared = nil
        mapChannels()
        guard prepared.seek == seek else { return }   // a newer one is waiting for the worker
        frame = Int64((prepared.seek.time * rate).rounded()) + framesSinceSeek
        seek = nil
        pending.removeAll()
        playHeldChord()
    }
}
