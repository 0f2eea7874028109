// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// The beat labels of `clumsy batch` against a beat tracker Clumsy did not write (librosa's,
/// with its defaults, on the audio of every quantised bundled preset: Tools/check_batch_beats.py),
/// and the form's sections as `segment_open`.
@Suite("Batch labels: beats heard by librosa, the form's sections", .serialized)
struct BatchBeatTests {
    /// The bundled presets whose notes sit on a grid (`time.quantize`).
    static let quantised = ["borrowed-chords", "melodic-minor-line", "polska", "polska-aabb", "pulse"]

    @Test("librosa's beat tracker finds the labelled beats in the audio of the quantised presets: mean F-measure ≥ 0.8",
          .enabled(if: slowChecksEnabled, "a measurement of the music (ten 60 s renders, librosa): make musicality runs it"))
    func beatsHeard() async throws {
        let check = try await CLI.run(["-c", "import librosa, mir_eval"], executable: "/usr/bin/env", prefix: ["python3"], timeout: 120)
        try #require(check.status == 0, "python3 lacks librosa or mir_eval (make deps installs them): \(check.stderr)")
        for name in Self.quantised {
            let preset = try String(contentsOfFile: projectRoot + "/Presets/\(name).json", encoding: .utf8)
            #expect(preset.contains("\"quantize\""), "\(name) is not quantised")
        }
        let directory = try TemporaryDirectory(prefix: "batch-beats")
        // The time limit only catches a hang: ten 60 s renders beside the parallel phase and two
        // `yes` took over 900 s once (2026-11-28; the whole test had taken 1,055 to 1,309 s).
        let result = try await CLI.run(["batch", "--presets", Self.quantised.joined(separator: ","), "--seeds", "1..2", "--duration", "60",
                                  "--outputs", "audio,labels", "-o", "out", "--quiet"], in: directory.path, timeout: 2400)
        try #require(result.status == 0, "\(result)")
        let items = ((try? FileManager.default.contentsOfDirectory(atPath: directory.file("out"))) ?? [])
            .filter { $0.first?.isNumber == true }.sorted()
        #expect(items.count == Self.quantised.count * 2)
        let scored = try await CLI.run([projectRoot + "/Tools/check_batch_beats.py"] + items.map { directory.file("out/" + $0) },
                                 executable: "/usr/bin/env", prefix: ["python3"], timeout: 600)
        try #require(scored.status == 0, "\(scored)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(scored.stdout.utf8)) as? [String: Any], "\(scored.stdout)")
        print("beats checked by librosa and mir_eval: \(scored.stdout)")
        #expect(report["items"] as? Int == items.count)
        #expect((report["mean_f"] as? Double ?? 0) >= 0.8, "\(report)")
    }

    @Test("A form's sections are labelled (segment_open: one span a phrase, its letter) on the MIDI file's bar lines, to the ending's end")
    func sectionsLabelled() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-sections")
        let result = try await CLI.run(["batch", "--presets", "polska-aabb", "--seeds", "1", "--duration", "81", "--outputs", "midi,labels",
                                  "-o", "out", "--quiet"], in: directory.path, timeout: 300)
        try #require(result.status == 0, "\(result)")
        let item = directory.file("out/00000-polska-aabb-s1/00000-polska-aabb-s1")
        let jams = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: item + ".jams"))) as? [String: Any])
        let annotations = try #require(jams["annotations"] as? [[String: Any]])
        let segments = try #require(annotations.first { $0["namespace"] as? String == "segment_open" }?["data"] as? [[String: Any]],
                                    "no segment_open annotation")
        // The preset's form: 3/4 at 108 bpm, sixteen-bar phrases, AABB, a 3 s ending.
        let preset = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: projectRoot + "/Presets/polska-aabb.json"))) as? [String: Any])
        let form = try #require(preset["form"] as? [String: Any])
        let tempo = try #require(preset["tempo"] as? Double), bars = try #require(form["bars"] as? Int)
        let ring = try #require(form["ending"] as? Double)
        #expect(preset["meter"] as? String == "3/4" && form["sections"] as? String == "AABB")
        let phrase = Double(bars * 3) * 60 / tempo
        // --duration 81 is "at least": the session ends at the end of the fourth phrase and rings.
        #expect(segments.map { $0["value"] as? String } == ["A", "A", "B", "B"], "\(segments)")
        for (index, segment) in segments.enumerated() {
            #expect(abs((segment["time"] as? Double ?? -1) - Double(index) * phrase) < 1e-5, "\(segment)")
        }
        let duration = try #require((jams["file_metadata"] as? [String: Any])?["duration"] as? Double)
        #expect(abs(duration - (4 * phrase + ring)) < 1e-3, "duration \(duration)")
        let beats = try String(contentsOfFile: item + ".beats.txt", encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
        #expect(beats.count == 4 * bars * 3, "\(beats.count) beats")
        #expect(abs((beats.last ?? 0) - (4 * phrase - 60 / tempo)) < 1e-5, "the last beat at \(beats.last ?? 0)")
    }

    @Test("The labels cover the audio to its end (issue 33): the JAMS duration is the FLAC's, chords, keys, tempi and sections last to it, beats stop with the session",
          .enabled(if: hasSmallSoundFont))
    func labelsCoverTheAudio() async throws {
        let directory = try TemporaryDirectory(prefix: "batch-tail")
        let result = try await CLI.run(["batch", "--presets", "lydian-moon,pulse", "--seeds", "1", "--duration", "10", "--audio-format", "flac",
                                  "--soundfont", smallSoundFont, "--outputs", "audio,midi,labels", "-o", "out", "--quiet"],
                                 in: directory.path, timeout: 600)
        try #require(result.status == 0, "\(result)")
        for (index, preset) in ["lydian-moon", "pulse"].enumerated() {
            let item = directory.file("out/0000\(index)-\(preset)-s1/0000\(index)-\(preset)-s1")
            let soxi = try await CLI.run(["-D", item + ".flac"], executable: "/usr/bin/soxi")
            let audio = try #require(Double(soxi.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(soxi)")
            let jams = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: item + ".jams"))) as? [String: Any])
            let duration = try #require((jams["file_metadata"] as? [String: Any])?["duration"] as? Double)
            #expect(audio > 12 && abs(duration - audio) < 1e-3, "\(preset): labels \(duration) s, audio \(audio) s")
            let annotations = try #require(jams["annotations"] as? [[String: Any]])
            for namespace in ["chord", "key_mode", "tempo"] + (preset == "pulse" ? ["segment_open"] : []) {
                let data = try #require(annotations.first { $0["namespace"] as? String == namespace }?["data"] as? [[String: Any]], "\(namespace)")
                let last = try #require(data.last)
                let end = (last["time"] as? Double ?? 0) + (last["duration"] as? Double ?? 0)
                #expect(abs(end - audio) < 1e-3, "\(preset) \(namespace) ends at \(end), the audio at \(audio)")
            }
            // The session (10 s, or to the end of its phrase) has beats; its tail does not.
            let beats = try String(contentsOfFile: item + ".beats.txt", encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
            let midi = try await #require(JSONSerialization.jsonObject(with: Data(CLI.run(["-c", "import mido,json,sys; print(json.dumps(mido.MidiFile(sys.argv[1]).length))", item + ".mid"],
                                                                                     executable: "/usr/bin/env", prefix: ["python3"]).stdout.utf8),
                                                                 options: .fragmentsAllowed) as? Double)
            #expect(!beats.isEmpty && beats.last! < midi && beats.last! > 9, "\(preset): last beat \(beats.last ?? -1), MIDI ends at \(midi)")
        }
    }
}
