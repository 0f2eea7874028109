// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Analysis
import Foundation
import MIDIFile
import Testing
import Theory

/// The fixtures written by make_fixtures.py (with mido) into a fresh directory, once per test process.
enum Fixtures {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("make_fixtures.py").path

    static let directory: String? = {
        let path = NSTemporaryDirectory() + "clumsy-analysis-\(getpid())"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, path]
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? path : nil
    }()

    static func path(_ name: String) throws -> String {
        guard let directory else { throw FixtureError() }
        return directory + "/" + name
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String { "python3 \(Fixtures.script) failed (needs python3 with mido: `pip install mido`)" }
    }
}

@Suite("MIDI analysis")
struct AnalysisTests {
    func symbols(_ analysis: MIDIAnalysis, style: SpellingStyle = .unicode) -> [String] {
        analysis.chords.map { $0.symbol(in: analysis.spellingKey, style: style) }
    }

    @Test("chords, inversions, slash bass and a passing tone in a file written by mido")
    func chords() throws {
        let analysis = try MIDIAnalyzer.analyze(path: Fixtures.path("chords.mid"))
        #expect(symbols(analysis) == ["C", "F/A", "G7/F", "C/G", "Am7", "C/D", "C", "G7", "C"])
        #expect(analysis.chords.map { $0.identification?.inversion } == [0, 1, 3, 2, 0, nil, 0, 0, 0])
        #expect(analysis.chords.map { $0.numeral(in: analysis.spellingKey) } == ["I", "IV", "V", "I", "vi", "I", "I", "V", "I"])
        #expect(analysis.spellingKey == Key(tonic: .C, scale: .major))
        #expect(analysis.key!.correlation > 0.8)
        // Tempo 120 bpm for 8 beats (4 s), then 90 bpm: each two-beat chord lasts 4/3 s.
        #expect(abs(analysis.chords[3].start - 3) < 1e-9)
        #expect(abs(analysis.chords[4].start - 4) < 1e-9)
        #expect(abs(analysis.chords[5].start - 4 - 4.0 / 3) < 1e-4)
        #expect(abs(analysis.duration - (4 + 20.0 / 3)) < 1e-4)
        let perChord = Dictionary(uniqueKeysWithValues: analysis.timePerChord().map { ($0.name, $0.seconds) })
        #expect(abs(perChord["C"]! - (1 + 8.0 / 3)) < 1e-4)
        let perDegree = Dictionary(uniqueKeysWithValues: analysis.timePerDegree().map { ($0.name, $0.seconds) })
        #expect(abs(perDegree.values.reduce(0, +) - analysis.duration) < 1e-6)
        #expect(abs(perDegree["V"]! - (1 + 4.0 / 3)) < 1e-4)
    }

    @Test("tracks, channels and velocities; percussion stays out of the harmony")
    func tracks() throws {
        let analysis = try MIDIAnalyzer.analyze(path: Fixtures.path("chords.mid"))
        #expect(analysis.tracks.map(\.name) == [nil, "Piano", "Drums"])
        #expect(analysis.tracks.map(\.noteCount) == [0, 33 + 3, 16])
        #expect(analysis.tracks[2].channels == [9])
        #expect(analysis.tracks[1].range == 38...77)
        #expect(analysis.noteCount == 52)
        // Chord notes at velocity 80 (bin 65–80), melody at 100 and drums at 100 (bin 97–112).
        #expect(analysis.velocityHistogram == [0, 0, 0, 0, 33, 0, 3 + 16, 0])
    }

    @Test("E♭ major is spelled with flats, in text and in ASCII")
    func eFlat() throws {
        let analysis = try MIDIAnalyzer.analyze(path: Fixtures.path("eflat.mid"))
        #expect(analysis.key?.key.description == "E♭ major")
        #expect(symbols(analysis) == ["E♭", "A♭/C", "B♭7", "E♭"])
        #expect(symbols(analysis, style: .ascii) == ["Eb", "Ab/C", "Bb7", "Eb"])
        let json = AnalysisReport.json(analysis, file: "eflat.mid")
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let key = object["key"] as! [String: Any]
        #expect(key["name"] as? String == "Eb major")
        let chords = object["chords"] as! [[String: Any]]
        #expect(chords.map { $0["symbol"] as? String } == ["Eb", "Ab/C", "Bb7", "Eb"])
        #expect(chords[2]["tones"] as? [String] == ["Bb", "D", "F", "Ab"])
        #expect(chords[1]["bass"] as? String == "C")
        #expect(chords[1]["inversion"] as? Int == 1)
        #expect(json.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test("format 0 with running status and note-on velocity 0 as note off")
    func formatZero() throws {
        let analysis = try MIDIAnalyzer.analyze(path: Fixtures.path("format0.mid"))
        #expect(analysis.format == 0)
        #expect(analysis.tracks.count == 1)
        #expect(analysis.noteCount == 16)
        #expect(symbols(analysis) == ["Dm7", "G7", "Cmaj7", "C"])
        #expect(abs(analysis.duration - 2.4) < 1e-9)
    }

    @Test("not MIDI and truncated files are bad data naming the file; a missing file cannot be read")
    func badFiles() throws {
        for name in ["notmidi.mid", "truncated.mid"] {
            let path = try Fixtures.path(name)
            #expect {
                _ = try MIDIAnalyzer.analyze(path: path)
            } throws: { error in
                guard let error = error as? AnalysisError else { return false }
                return error.exitStatus == 65 && error.description.contains(path)
            }
        }
        #expect {
            _ = try MIDIAnalyzer.analyze(path: "/nonexistent/x.mid")
        } throws: { error in (error as? AnalysisError)?.exitStatus == 66 }
    }

    @Test("every prefix and many corruptions of a file either analyse or are refused, never crash")
    func robustness() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("chords.mid"))))
        var refused = 0
        for length in 0...bytes.count {
            do {
                _ = MIDIAnalyzer.analyze(try MIDIFileReader.parse(Array(bytes[0..<length])))
            } catch {
                refused += 1
            }
        }
        #expect(refused > bytes.count / 2)
        var state: UInt64 = 12345
        for _ in 0..<300 {
            var copy = bytes
            for _ in 0..<3 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                copy[Int(state >> 33) % copy.count] = UInt8(truncatingIfNeeded: state >> 20)
            }
            if let contents = try? MIDIFileReader.parse(copy) {
                let analysis = MIDIAnalyzer.analyze(contents)
                _ = AnalysisReport.text(analysis, file: "x")
                _ = AnalysisReport.json(analysis, file: "x")
            }
        }
    }

    @Test("an empty file of notes has no key and no chords")
    func empty() {
        let contents = MIDIFileContents(format: 1, ticksPerQuarter: 96, tracks: [[MIDIEvent(tick: 0, message: .endOfTrack)]])
        let analysis = MIDIAnalyzer.analyze(contents)
        #expect(analysis.key == nil)
        #expect(analysis.chords.isEmpty)
        #expect(AnalysisReport.text(analysis, file: "e").contains("key: none"))
        #expect(AnalysisReport.json(analysis, file: "e").contains("\"key\":null"))
    }

    /// Issue 44: "1 notes".
    @Test("one note is one note, not \"1 notes\", in the header and the track's row")
    func oneNote() {
        let contents = MIDIFileContents(format: 0, ticksPerQuarter: 96, tracks: [[
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 64)),
            MIDIEvent(tick: 96, message: .noteOff(channel: 0, note: 60, velocity: 0)),
            MIDIEvent(tick: 96, message: .endOfTrack),
        ]])
        let text = AnalysisReport.text(MIDIAnalyzer.analyze(contents), file: "one.mid")
        #expect(!text.contains("1 notes") && !text.contains("1 spans"), "\(text)")
        #expect(text.split(separator: "\n").first?.hasSuffix(", 1 note") == true, "\(text)")
        #expect(text.contains("      1 note   channel 1"), "\(text)")   // aligned with "notes  channel"
    }

    @Test("a long file uses longer windows, at most 100 000")
    func longFile() {
        let far: UInt64 = 96 * 10_000_000
        let contents = MIDIFileContents(format: 0, ticksPerQuarter: 96, tracks: [[
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 60, velocity: 64)),
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 64, velocity: 64)),
            MIDIEvent(tick: 0, message: .noteOn(channel: 0, note: 67, velocity: 64)),
            MIDIEvent(tick: far, message: .noteOff(channel: 0, note: 60, velocity: 0)),
        ]])
        let analysis = MIDIAnalyzer.analyze(contents)
        #expect(analysis.windowTicks >= far / MIDIAnalyzer.maximumWindows)
        #expect(analysis.chords.count == 1)
        #expect(analysis.chords.first?.identification?.chord == Chord(root: .C, quality: .major))
    }
}
