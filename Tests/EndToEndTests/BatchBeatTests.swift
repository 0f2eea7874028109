import Foundation
import Testing

/// The beat labels of `clumsy batch` against a beat tracker Clumsy did not write: librosa's,
/// with its defaults, on the audio of every quantised bundled preset (Tools/check_batch_beats.py).
@Suite("Batch beat labels heard by librosa", .serialized)
struct BatchBeatTests {
    /// The bundled presets whose notes sit on a grid (`time.quantize`).
    static let quantised = ["borrowed-chords", "melodic-minor-line", "polska", "polska-aabb", "pulse"]

    @Test("librosa's beat tracker finds the labelled beats in the audio of the quantised presets: mean F-measure ≥ 0.8")
    func beatsHeard() throws {
        let check = try CLI.run(["-c", "import librosa, mir_eval"], executable: "/usr/bin/env", prefix: ["python3"], timeout: 120)
        try #require(check.status == 0, "python3 lacks librosa or mir_eval (make deps installs them): \(check.stderr)")
        for name in Self.quantised {
            let preset = try String(contentsOfFile: projectRoot + "/Presets/\(name).json", encoding: .utf8)
            #expect(preset.contains("\"quantize\""), "\(name) is not quantised")
        }
        let directory = try TemporaryDirectory(prefix: "batch-beats")
        let result = try CLI.run(["batch", "--presets", Self.quantised.joined(separator: ","), "--seeds", "1..2", "--duration", "60",
                                  "--outputs", "audio,labels", "-o", "out", "--quiet"], in: directory.path, timeout: 900)
        try #require(result.status == 0, "\(result)")
        let items = ((try? FileManager.default.contentsOfDirectory(atPath: directory.file("out"))) ?? [])
            .filter { $0.first?.isNumber == true }.sorted()
        #expect(items.count == Self.quantised.count * 2)
        let scored = try CLI.run([projectRoot + "/Tools/check_batch_beats.py"] + items.map { directory.file("out/" + $0) },
                                 executable: "/usr/bin/env", prefix: ["python3"], timeout: 600)
        try #require(scored.status == 0, "\(scored)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(scored.stdout.utf8)) as? [String: Any], "\(scored.stdout)")
        print("beats checked by librosa and mir_eval: \(scored.stdout)")
        #expect(report["items"] as? Int == items.count)
        #expect((report["mean_f"] as? Double ?? 0) >= 0.8, "\(report)")
    }
}
