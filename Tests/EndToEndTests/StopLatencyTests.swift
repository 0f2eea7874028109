// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// A stop ends an audio render or a live session with a complete file (issue 8's finding 4). How
/// quickly is measured by row 9 of `make bench` (docs/benchmarks.md): a wall-clock limit in a
/// test says something about Clumsy only on a machine that is not busy with other work, and a
/// test must pass on one that is. The limits here are hang guards: a render that ignored the
/// signal would run for minutes.
@Suite("Stopping a render (issue 8)")
struct StopLatencyTests {
    @Test("SIGINT ends an audio render soon (a hang guard; make bench row 9 measures it), with a complete file",
          .enabled(if: hasSmallSoundFont), arguments: ["x.ogg", "x.wav", "x.flac"])
    func audioStopsQuickly(name: String) async throws {
        let directory = try TemporaryDirectory()
        var stopping = 0.0, rendering = 0.0
        let result = try await CLI.run(["run", "original", "--duration", "3000", "--audio", name, "--sample-rate", "96000",
                                  "--soundfont", smallSoundFont, "--quiet"], in: directory.path, timeout: 240) { pid in
            // A moment into the render, from its stop handlers, not from the launch: the release
            // build renders several times what the debug build did by the old 1.2 s, and a stop
            // still encodes all that was rendered. Timed on a thread of its own: a watcher
            // awaiting a busy pool counted the seconds it waited for a thread as the stop's.
            let launched = Date()
            (rendering, stopping) = await onOwnThread {
                blockUntil(timeout: 30) { catchesSIGINT(pid) }
                sleepThread(0.3)
                let rendering = Date().timeIntervalSince(launched)
                kill(pid, SIGINT)
                return (rendering, secondsUntilExit(pid, limit: 200))
            }
        }
        #expect(result.status == 130, "\(result)")
        // The mix is mastered in two passes, so a stop still writes (encodes) everything rendered
        // so far: cheap for WAV and FLAC; for Vorbis at 96 kHz about as long as the render ran
        // (idle, release: 1.5 s after 1 s, 5.9 s after 6 s). On a busy machine the signal can come
        // many seconds in (CI: 30 s to stop), so the guard scales with that; a render that ignored
        // the signal would run its 3000 s, far past either.
        let limit = 15 + 3 * rendering
        #expect(stopping < limit, "\(name) at 96 kHz took \(stopping) s to stop, signalled \(rendering) s in (limit \(limit) s)")
        #expect(directory.entries() == [name], "left behind: \(directory.entries())")
        if name == "x.wav" { #expect(try WAVFile(path: directory.file(name)).frameCount > 0) }
    }

    @Test("Ctrl-C stops a live session soon (a hang guard; make bench row 9 measures it), with a complete MIDI file", .enabled(if: hasSmallSoundFont))
    func liveStopsQuickly() async throws {
        let directory = try TemporaryDirectory()
        let (result, afterSignal) = try await runInterrupted(
            ["run", "original", "--live", "--audio-driver", "file", "--audio", "live.wav", "--midi", "l.mid",
             "--soundfont", smallSoundFont, "--quiet"], in: directory.path, after: 3)
        #expect(result.status == 130 && !result.timedOut, "\(result)")
        #expect(afterSignal <= 15, "exited \(afterSignal) s after SIGINT")
        let contents = try expectCompleteMIDI(directory.file("l.mid"))
        #expect(!noteOns(contents.tracks[2]).isEmpty, "no key notes in 3 s of original")
        #expect(directory.hiddenEntries().isEmpty, "temporaries left: \(directory.entries())")
    }
}
