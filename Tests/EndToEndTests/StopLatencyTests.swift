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
        var stopping = 0.0
        let result = try await CLI.run(["run", "original", "--duration", "3000", "--audio", name, "--sample-rate", "96000",
                                  "--soundfont", smallSoundFont, "--quiet"], in: directory.path, timeout: 60) { pid in
            // A moment into the render, from its stop handlers, not from the launch: the release
            // build renders several times what the debug build did by the old 1.2 s, and a stop
            // still encodes all that was rendered.
            await waitForStopHandlers(pid)
            try? await Task.sleep(nanoseconds: 300_000_000)
            kill(pid, SIGINT)
            stopping = secondsUntilExit(pid, limit: 30)
        }
        #expect(result.status == 130, "\(result)")
        // The mix is mastered in two passes, so a stop still writes (encodes) everything rendered
        // so far: cheap for WAV and FLAC, about half a second more for Vorbis (make bench, row 9).
        #expect(stopping < 15, "\(name) at 96 kHz took \(stopping) s to stop")
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
