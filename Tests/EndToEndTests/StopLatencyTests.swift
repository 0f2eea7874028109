// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// How quickly a stop ends an audio render (issue 8's finding 4). A wall-clock limit says
/// something about Clumsy only on a machine that is not busy with other work, so `make test`
/// runs this suite on its own after the parallel suites, with the JACK ones.
@Suite("Stop latency (issue 8)", .serialized)
struct StopLatencyTests {
    @Test("SIGINT ends an audio render within 1 s (Ogg: 1.5 s), with a complete file",
          .enabled(if: hasSmallSoundFont), arguments: ["x.ogg", "x.wav", "x.flac"])
    func audioStopsQuickly(name: String) async throws {
        let directory = try TemporaryDirectory()
        var stopping = 0.0
        let result = try await CLI.run(["run", "original", "--duration", "3000", "--audio", name, "--sample-rate", "96000",
                                  "--soundfont", smallSoundFont, "--quiet"], in: directory.path, timeout: 20) { pid in
            // A moment into the render, from its stop handlers, not from the launch: the release
            // build renders several times what the debug build did by the old 1.2 s, and a stop
            // still encodes all that was rendered.
            await waitForStopHandlers(pid)
            try? await Task.sleep(nanoseconds: 300_000_000)
            kill(pid, SIGINT)
            stopping = secondsUntilExit(pid)
        }
        #expect(result.status == 130, "\(result)")
        // The mix is mastered in two passes, so a stop still writes (encodes) everything rendered so
        // far: cheap for WAV and FLAC, but Vorbis encoding of the ~10 s of 96 kHz audio rendered by
        // then takes about half a second more on this machine (measured 0.6–0.9 s in all, debug build).
        // WAV and FLAC: measured 0.13-0.56 s from the signal to the exit, the build of 7103a00 and
        // this one alike, on an idle machine (how much was rendered by then varies); 1 s keeps the
        // check (a render that ignored the signal would run for minutes) without its noise.
        let limit = name.hasSuffix(".ogg") ? 1.5 : 1.0
        #expect(stopping < limit, "\(name) at 96 kHz took \(stopping) s to stop")
        #expect(directory.entries() == [name], "left behind: \(directory.entries())")
        if name == "x.wav" { #expect(try WAVFile(path: directory.file(name)).frameCount > 0) }
    }

    @Test("Ctrl-C stops a live session within 0.5 s", .enabled(if: hasSmallSoundFont))
    func liveStopsQuickly() async throws {
        let directory = try TemporaryDirectory()
        let (result, afterSignal) = try await runInterrupted(
            ["run", "original", "--live", "--audio-driver", "file", "--audio", "live.wav", "--midi", "l.mid",
             "--soundfont", smallSoundFont, "--quiet"], in: directory.path, after: 3)
        #expect(result.status == 130 && !result.timedOut, "\(result)")
        #expect(afterSignal <= 0.5, "exited \(afterSignal) s after SIGINT")
    }
}
