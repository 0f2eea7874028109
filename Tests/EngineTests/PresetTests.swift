// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Foundation
import Physics
import Presets
import TestSupport
import Testing
import Theory
@testable import Engine

@Suite struct BundledPresetTests {
    @Test func atLeastFiveDistinctPresetsAllValid() throws {
        let presets = PresetLibrary.bundled()
        #expect(presets.count >= 5)
        #expect(presets.first?.name == "default")
        var keys: Set<String> = []
        for entry in presets {
            let preset = try Preset.load(path: entry.path)
            #expect(!preset.description.isEmpty, "\(entry.name) has no description")
            _ = try Configuration(preset: preset, duration: 1)
            keys.insert(preset.key.description)
        }
        #expect(keys.count >= 5, "presets should differ in key and mode")
    }

    @Test func originalIsTheOriginalApp() throws {
        let preset = try bundled("original")
        let s = Preset.metresPerPoint
        #expect(preset.key == Key(tonic: PitchClass(0), scale: .major))
        #expect(preset.bass.bouncers == Array(1...7))
        #expect(preset.keys.tones == [1, 2, 3, 4])
        #expect(preset.piano.count == 4)
        #expect(preset.keys.tone == "marimba")
        #expect(abs(preset.speed - 275 * s) < 1e-3)
        let layout = try Layout.make(preset, seed: preset.seed)
        let expected: [Int: (Double, Double)] = [1: (256, 344), 2: (0, 700), 3: (512, 700), 4: (0, 344), 5: (512, 344), 6: (0, 0), 7: (512, 0)]
        for bouncer in layout.bouncers {
            let p = expected[bouncer.tag]!
            #expect(abs(bouncer.center.x - p.0 * s) < 1e-9 && abs(bouncer.center.y - p.1 * s) < 1e-9)
            #expect(abs(bouncer.radius - 40 * s) < 1e-3)
        }
        #expect(layout.keys.map { ($0.frame.minX + $0.frame.maxX) / 2 / s }.map { ($0 * 1000).rounded() / 1000 } == [573, 703, 833, 961])
        #expect(layout.keys.allSatisfy { abs($0.frame.width - 124 * s) < 1e-9 && abs($0.frame.height - 25 * s) < 1e-9 })
        #expect(abs(layout.bassStart.x - 256 * s) < 1e-9 && abs(layout.bassStart.y - 192 * s) < 1e-9)
        #expect(layout.pianoStarts.count == 4)
        #expect(layout.pianoStarts.allSatisfy { layout.pianoArea.contains($0, inset: preset.piano.radius) && $0.y > layout.pianoArea.height / 2 })
    }

    @Test func optionalFieldsTakeDefaults() throws {
        let preset = try decode("{}")
        #expect(preset.gravity == 9.81)
        #expect(preset.tempo == 120)
        #expect(preset.timestep == 1.0 / 240)
        #expect(preset.piano.count == 4)
        #expect(preset.name == "test")
        #expect(preset.sound.filter == nil && preset.sound.delay != nil && preset.sound.reverb != nil)
    }

    @Test func effectsCanBeSwitchedOff() throws {
        let preset = try decode(#"{"sound": {"delay": false, "reverb": null}}"#)
        #expect(preset.sound.delay == nil && preset.sound.reverb == nil)
    }
}

@Suite struct HostilePresetTests {
    /// (preset text, field path the error must name, words the message must contain)
    static let catalogue: [(String, String, String)] = [
        ("", "", "empty"),
        ("not json", "", "not valid JSON"),
        (#"{"gravity": 9.81"#, "", "truncated"),
        ("[1, 2]", "", "expected an object"),
        (#"{"gravty": 9.81}"#, "gravty", "unknown field"),
        (#"{"bass": {"radus": 1}}"#, "bass.radus", "unknown field"),
        (#"{"gravity": "high"}"#, "gravity", "expected a number"),
        (#"{"gravity": NaN}"#, "", "NaN"),
        (#"{"gravity": Infinity}"#, "", "NaN"),
        (#"{"gravity": -1}"#, "gravity", "0…100"),
        (#"{"gravity": 1e308}"#, "gravity", "out of range"),
        (#"{"speed": 0}"#, "speed", "0.1…20"),
        (#"{"tempo": 0}"#, "tempo", "20…400"),
        (#"{"timestep": 0.5}"#, "timestep", "out of range"),
        (#"{"seed": -1}"#, "seed", "whole number"),
        (#"{"seed": 1.5}"#, "seed", "whole number"),
        (#"{"key": {"tonic": "H"}}"#, "key.tonic", "not a note name"),
        (#"{"key": {"tonic": "C", "scale": "bebop"}}"#, "key.scale", "dorian"),
        (#"{"key": "C major"}"#, "key", "expected an object"),
        (#"{"layout": "spiral"}"#, "layout", "original, ring, scatter"),
        (#"{"piano": {"count": 1e308}}"#, "piano.count", "0…1000"),
        (#"{"piano": {"count": -3}}"#, "piano.count", "0…1000"),
        (#"{"piano": {"count": 2.5}}"#, "piano.count", "whole number"),
        (#"{"piano": {"radius": 0}}"#, "piano.radius", "out of range"),
        (#"{"piano": {"restitution": 1.5}}"#, "piano.restitution", "0.5…1"),
        (#"{"piano": {"count": 1000, "radius": 0.5}}"#, "piano.count", "do not fit"),
        (#"{"bass": {"radius": 0}}"#, "bass.radius", "out of range"),
        (#"{"bass": {"bouncers": []}}"#, "bass.bouncers", "at least one"),
        (#"{"bass": {"bouncers": [1, 8]}}"#, "bass.bouncers[1]", "1…7"),
        (#"{"bass": {"bouncers": [2, 2]}}"#, "bass.bouncers[1]", "twice"),
        (#"{"bass": {"bouncers": "all"}}"#, "bass.bouncers", "expected an array"),
        (#"{"bass": {"tone": "kazoo"}}"#, "bass.tone", "acoustic-bass"),
        (#"{"bass": {"register": "C99"}}"#, "bass.register", "C0"),
        (#"{"bass": {"velocity": {"quiet": 2, "loud": 1}}}"#, "bass.velocity.loud", "greater than quiet"),
        (#"{"keys": {"tones": []}}"#, "keys.tones", "at least one"),
        (#"{"keys": {"tones": [1, 2, 3, 4, 5, 1]}}"#, "keys.tones", "at most 5"),
        (#"{"second": {"interval": 4}}"#, "second.interval", "-6, -3, 3 or 6"),
        (#"{"second": {"tone": "kazoo"}}"#, "second.tone", "marimba"),
        (#"{"bass": {"chords": {"5": "V9/Q"}}}"#, "bass.chords.5", "accepted"),
        (#"{"bass": {"chords": {"8": "V"}}}"#, "bass.chords.8", "1, 2, 3"),
        (#"{"bass": {"chords": {"2": "Hmaj7"}}}"#, "bass.chords.2", "chord symbol"),
        (#"{"bass": {"chords": {"2": [4, 7]}}}"#, "bass.chords.2", "root"),
        (#"{"bass": {"chords": {"2": [0, 2, 4, 5, 7, 9]}}}"#, "bass.chords.2", "at most 5"),
        (#"{"bass": {"chords": {"2": 7}}}"#, "bass.chords.2", "expected a chord"),
        (#"{"key": {"scale": "minor pentatonic"}, "bass": {"chords": {"1": "ii"}}}"#, "bass.chords.1", "ii"),
        (#"{"keys": {"voicing": "drop3"}}"#, "keys.voicing", "folded, close, open"),
        (#"{"keys": {"tone": "theremin"}}"#, "keys.tone", "marimba"),
        (#"{"keys": {"noteLength": 0}}"#, "keys.noteLength", "out of range"),
        (#"{"keys": {"register": "G9", "voicing": "open"}}"#, "keys.register", "C7"),
        (#"{"sound": {"filter": {"cutoff": 5}}}"#, "sound.filter.cutoff", "20…20000"),
        (#"{"sound": {"delay": {"feedback": 1}}}"#, "sound.delay.feedback", "0…0.95"),
        (#"{"sound": {"reverb": {"room": 2}}}"#, "sound.reverb.room", "0…1"),
        (#"{"sound": {"reverb": true}}"#, "sound.reverb", "expected an object"),
        (#"{"description": 5}"#, "description", "expected a string"),
    ]

    @Test(arguments: 0..<catalogue.count)
    func rejectedWithFileFieldAndRange(index: Int) {
        let (text, field, words) = Self.catalogue[index]
        let error = presetError(text)
        guard case .preset(let file, let path, let message)? = error else {
            Issue.record("\(text) gave \(String(describing: error)), expected a preset error")
            return
        }
        #expect(file == "test.json")
        #expect(path == field, "\(text): field \(path), expected \(field)")
        #expect(message.contains(words), "\(text): \(message)")
        #expect(error?.exitStatus == 65)
    }

    @Test func oversizedFileIsRejectedBeforeParsing() {
        let big = "{\"description\": \"" + String(repeating: "x", count: Limits.presetFileSize) + "\"}"
        guard case .preset(_, _, let message)? = presetError(big) else { Issue.record("accepted"); return }
        #expect(message.contains("larger than"))
    }

    @Test func everyCatalogueEntryIsStoppedBeforeChipmunk() throws {
        for (text, field, _) in Self.catalogue {
            let configuration = (try? decode(text)).flatMap { try? Configuration(preset: $0, duration: 0.5) }
            #expect(configuration == nil, "\(field): \(text) reached the simulator")
            // Had it reached Chipmunk's assertions, the process would abort here.
            if let configuration { _ = try Simulator(configuration: configuration).run(into: []) }
        }
    }
}
