// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Foundation
import Testing
@testable import Presets

/// The package root (this file is Tests/PresetsTests/SettingsTableTests.swift).
let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// A text file's contents, or nil.
func readText(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

@Suite struct SettingsTableTests {
    @Test("Presets/README.md holds the reference generated from the table (run `make docs`)")
    func referenceIsCurrent() throws {
        let readme = try #require(readText(packageRoot + "/Presets/README.md"))
        let updated = try #require(SettingsReference.updating(readme: readme), "the settings table markers are missing")
        #expect(updated == readme, "Presets/README.md is out of date: run `make docs`")
    }

    @Test("docs/studio.md holds the OSC-in table generated from the controls table (run `make docs`)")
    func controlsReferenceIsCurrent() throws {
        let studio = try #require(readText(packageRoot + "/docs/studio.md"))
        let updated = try #require(ControlsReference.updating(studio: studio), "the controls table markers are missing")
        #expect(updated == studio, "docs/studio.md is out of date: run `make docs`")
        for row in Control.table { #expect(studio.contains("`/clumsy/\(row.name)"), "no row for \(row.name)") }
    }

    @Test("Sources/clumsy/SettingFlags.swift is generated from the table (run `make docs`)")
    func flagsAreCurrent() throws {
        let source = try #require(readText(packageRoot + "/Sources/clumsy/SettingFlags.swift"))
        #expect(source == SettingsReference.flagsSource(), "SettingFlags.swift is out of date: run `make docs`")
    }

    @Test("Paths and flags are unique; every field of a block is under a declared group")
    func rowsAreConsistent() {
        let paths = Settings.all.map(\.path)
        #expect(Set(paths).count == paths.count)
        let flags = Settings.flagged.map(\.flag!)
        #expect(Set(flags).count == flags.count)
        for setting in Settings.all where setting.flagTakesOff {
            #expect(Settings.block(of: setting) != nil, "\(setting.path) takes off but is in no block")
        }
    }

    @Test("{} decodes to the defaults the table declares")
    func emptyPresetIsTheDefaults() throws {
        let preset = try Preset.decode(Array("{}".utf8), file: "x.json", defaultName: "x")
        #expect(preset == Preset.defaults(name: "x", source: "x.json"))
        #expect(preset.gravity == 9.81 && preset.piano.count == 4 && preset.seed == 1 && preset.keys.tone == "marimba")
        #expect(preset.sound.filter == nil && preset.sound.delay?.time == 0.375 && preset.sound.reverb?.roomSize == 0.5)
    }

    @Test("Every number row refuses a value just outside its range, naming the path and the range",
          arguments: Settings.all.filter { $0.type == "number" })
    func numberRangeEnforced(_ setting: Setting) throws {
        // Build {"a": {"b": 1e9}} for a.b; 1e9 is outside every range in the table.
        var json = "1e9"
        for part in setting.path.split(separator: ".").reversed() { json = "{\"\(part)\": \(json)}" }
        do {
            _ = try Preset.decode(Array(json.utf8), file: "x.json", defaultName: "x")
            Issue.record("\(setting.path) = 1e9 was accepted")
        } catch {
            #expect(error.exitStatus == 65)
            #expect("\(error)".contains(setting.path) && "\(error)".contains(setting.accepted), "\(error)")
        }
    }

    @Test("Flags: a value out of range is a usage error naming the flag and the range")
    func flagOutOfRange() throws {
        let preset = Preset.defaults()
        for (flag, value, range) in [("gravity", "101", "0…100"), ("speed", "nan", "0.1…20"), ("filter", "5", "20…20000"),
                                     ("room", "2", "0…1"), ("seed", "-1", "18446744073709551615")] {
            do {
                _ = try preset.applying(flags: [flag: value])
                Issue.record("--\(flag) \(value) accepted")
            } catch {
                #expect(error.exitStatus == 64 && "\(error)".contains("--\(flag)") && "\(error)".contains(range), "\(error)")
            }
        }
    }

    @Test("Flags: off switches a block off, a number switches it on keeping the preset's other values")
    func effectFlags() throws {
        let preset = try Preset.decode(Array(#"{"sound": {"delay": null, "filter": {"resonance": 6}}}"#.utf8), file: "x", defaultName: "x")
        #expect(preset.sound.delay == nil && preset.sound.filter?.resonance == 6)
        let changed = try preset.applying(flags: ["delay": "0.5", "filter": "off", "reverb": "0.1"])
        #expect(changed.sound.delay?.time == 0.5 && changed.sound.delay?.feedback == 0.3 && changed.sound.filter == nil)
        #expect(changed.sound.reverb?.level == 0.1 && changed.sound.reverb?.roomSize == 0.5)
        #expect(throws: SessionError.self) { try preset.applying(flags: ["feedback": "0.5"]) }   // delay off
        #expect(throws: SessionError.self) { try preset.applying(flags: ["room": "0.5"], dry: true) }
        let dry = try preset.applying(flags: ["seed": "7"], dry: true)
        #expect(dry.sound.filter == nil && dry.sound.delay == nil && dry.sound.reverb == nil && dry.seed == 7)
    }

    @Test("A seed keeps every digit up to 2^64−1; anything else is refused")
    func seedPrecision() throws {
        for seed in [UInt64(0), 1, 9_007_199_254_740_993, UInt64.max - 1, UInt64.max] {
            let preset = try Preset.decode(Array("{\"seed\": \(seed)}".utf8), file: "x", defaultName: "x")
            #expect(preset.seed == seed)
        }
        for bad in ["18446744073709551616", "-1", "1.5", "1e19", "9007199254740993.0"] {
            #expect(throws: SessionError.self, "seed \(bad)") {
                _ = try Preset.decode(Array("{\"seed\": \(bad)}".utf8), file: "x", defaultName: "x")
            }
        }
    }

    @Test("An empty SoundFont path is refused")
    func emptySoundFont() {
        #expect(throws: SessionError.preset(file: "x", field: "sound.soundFont", message: "is empty; give a file path, or leave the field out")) {
            _ = try Preset.decode(Array(#"{"sound": {"soundFont": ""}}"#.utf8), file: "x", defaultName: "x")
        }
    }
}

extension Setting: CustomTestStringConvertible {
    public var testDescription: String { path }
}

@Suite("The key's written tonic")
struct WrittenTonicTests {
    func decode(_ json: String) throws -> Preset {
        try Preset.decode(Array(json.utf8), file: "test.json", defaultName: "test")
    }

    @Test("a tonic is kept as written whichever of tonic and scale comes first, in a preset and in flags",
          arguments: [("D#", "minor", "D♯ minor"), ("G#", "harmonic minor", "G♯ harmonic minor"), ("Gb", "major", "G♭ major"),
                      ("D#", "major", "E♭ major"), ("A#", "major", "B♭ major")])
    func writtenTonicSurvives(tonic: String, scale: String, printed: String) throws {
        let tonicFirst = try decode(#"{"key": {"tonic": "\#(tonic)", "scale": "\#(scale)"}}"#)
        let scaleFirst = try decode(#"{"key": {"scale": "\#(scale)", "tonic": "\#(tonic)"}}"#)
        #expect(tonicFirst.key.description == printed)
        #expect(scaleFirst.key.description == printed)
        let flagged = try Preset.defaults().applying(flags: ["key": tonic, "mode": scale])
        #expect(flagged.key.description == printed)
        let modeOnly = try decode(#"{"key": {"tonic": "\#(tonic)"}}"#).applying(flags: ["mode": scale])
        #expect(modeOnly.key.description == printed)
    }
}

/// Issue 44 #10: `"lift": true` was played but named nowhere a preset's author reads.
@Suite("Scene fields are documented")
struct SceneFieldDocumentationTests {
    @Test("every control a scene may set is named in the scenes row (Presets/README.md, clumsy-preset(5)) and in docs/form.md")
    func everySceneControlIsNamed() throws {
        let form = try #require(readText(packageRoot + "/docs/form.md"))
        #expect(Preset.Scene.controlFields.contains("lift"))
        for name in Preset.Scene.controlFields {
            #expect(Preset.Scene.accepted.contains("\"\(name)\""), "the scenes row does not name \(name)")
            #expect(form.contains("`\(name)"), "docs/form.md does not name \(name)")
        }
    }
}
