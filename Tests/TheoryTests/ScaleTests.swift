// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
@testable import Theory

@Suite("Scale and ScaleDegree")
struct ScaleTests {
    @Test("catalog steps")
    func catalogSteps() {
        #expect(Scale.major.steps == [0, 2, 4, 5, 7, 9, 11])
        #expect(Scale.dorian.steps == [0, 2, 3, 5, 7, 9, 10])
        #expect(Scale.phrygian.steps == [0, 1, 3, 5, 7, 8, 10])
        #expect(Scale.lydian.steps == [0, 2, 4, 6, 7, 9, 11])
        #expect(Scale.mixolydian.steps == [0, 2, 4, 5, 7, 9, 10])
        #expect(Scale.minor.steps == [0, 2, 3, 5, 7, 8, 10])
        #expect(Scale.locrian.steps == [0, 1, 3, 5, 6, 8, 10])
        #expect(Scale.harmonicMinor.steps == [0, 2, 3, 5, 7, 8, 11])
        #expect(Scale.melodicMinor.steps == [0, 2, 3, 5, 7, 9, 11])
    }

    @Test("catalog names and validity")
    func catalogNames() {
        #expect(Scale.catalogNames == [
            "major", "dorian", "phrygian", "lydian", "mixolydian", "minor", "locrian", "harmonicMinor", "melodicMinor",
            "majorPentatonic", "minorPentatonic", "blues",
        ])
        #expect(Scale.all.count == 12)
        #expect(Set(Scale.all).count == 12)
        for scale in Scale.all {
            #expect(scale.steps.count == 7)
            #expect(scale.steps.first == 0)
            #expect(scale.steps.allSatisfy { (0..<12).contains($0) })
            #expect(zip(scale.steps, scale.steps.dropFirst()).allSatisfy { $0 < $1 })
            #expect(Scale.named(scale.name) == scale)
        }
        #expect(Scale.harmonicMinor.displayName == "harmonic minor")
        #expect(Scale.major.displayName == "major")
    }

    @Test("church modes are rotations of the major scale")
    func modesAreRotations() {
        let major = Scale.major.steps
        let modes: [Scale] = [.major, .dorian, .phrygian, .lydian, .mixolydian, .minor, .locrian]
        for (rotation, mode) in modes.enumerated() {
            let rotated = (0..<7).map { (major[($0 + rotation) % 7] - major[rotation] + 12) % 12 }
            #expect(mode.steps == rotated, "\(mode.name)")
        }
    }

    @Test("named lookup with aliases", arguments: [
        ("major", Scale.major), ("Major", .major), ("ionian", .major), ("IONIAN", .major),
        ("minor", .minor), ("aeolian", .minor), ("natural minor", .minor), ("Natural-Minor", .minor),
        ("dorian", .dorian), ("Phrygian", .phrygian), ("LYDIAN", .lydian), ("mixolydian", .mixolydian),
        ("locrian", .locrian), ("harmonic minor", .harmonicMinor), ("harmonic-minor", .harmonicMinor),
        ("harmonicMinor", .harmonicMinor), ("harmonic_minor", .harmonicMinor), ("melodic minor", .melodicMinor),
        ("melodicMinor", .melodicMinor), ("Melodic-Minor", .melodicMinor),
    ])
    func namedAliases(name: String, scale: Scale) {
        #expect(Scale.named(name) == scale)
    }

    @Test("unknown names", arguments: ["", "bluesy", "majr", "pentatonic minor major", "harmonic"])
    func unknownNames(name: String) {
        #expect(Scale.named(name) == nil)
    }

    @Test("custom scale validation")
    func customValidation() {
        #expect(Scale(name: "custom", steps: [0, 1, 2, 3, 4, 5, 6]) != nil)
        #expect(Scale(name: "short", steps: [0, 2, 4]) == nil)
        #expect(Scale(name: "offset", steps: [1, 2, 4, 5, 7, 9, 11]) == nil)
        #expect(Scale(name: "unsorted", steps: [0, 4, 2, 5, 7, 9, 11]) == nil)
        #expect(Scale(name: "repeat", steps: [0, 2, 2, 5, 7, 9, 11]) == nil)
        #expect(Scale(name: "wide", steps: [0, 2, 4, 5, 7, 9, 12]) == nil)
    }

    @Test("scale degrees")
    func degrees() {
        #expect(ScaleDegree(0) == nil)
        #expect(ScaleDegree(8) == nil)
        #expect(ScaleDegree(-1) == nil)
        #expect(ScaleDegree.all.map(\.number) == [1, 2, 3, 4, 5, 6, 7])
        #expect(ScaleDegree.all.map(\.index) == [0, 1, 2, 3, 4, 5, 6])
        #expect(ScaleDegree.all.map(\.romanNumeral) == ["I", "II", "III", "IV", "V", "VI", "VII"])
        #expect(ScaleDegree(5)?.advanced(by: 2).number == 7)
        #expect(ScaleDegree(6)?.advanced(by: 2).number == 1)
        #expect(ScaleDegree(7)?.advanced(by: 6).number == 6)
        #expect(ScaleDegree(1)?.advanced(by: -1).number == 7)
        #expect(ScaleDegree(wrappingIndex: 7).number == 1)
        #expect(ScaleDegree(3)! < ScaleDegree(4)!)
    }

    @Test("Codable forms")
    func codable() throws {
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        #expect(try decoder.decode(Scale.self, from: Data(#""Dorian""#.utf8)) == .dorian)
        #expect(try decoder.decode(Scale.self, from: Data(#""harmonic minor""#.utf8)) == .harmonicMinor)
        #expect(throws: DecodingError.self) { try decoder.decode(Scale.self, from: Data(#""bluesy""#.utf8)) }
        #expect(try decoder.decode(Scale.self, from: Data(#""minor pentatonic""#.utf8)) == .minorPentatonic)
        let custom = #"{"name":"odd","steps":[0,1,3,4,6,8,10]}"#
        #expect(try decoder.decode(Scale.self, from: Data(custom.utf8)).steps == [0, 1, 3, 4, 6, 8, 10])
        let bad = #"{"name":"odd","steps":[0,1,3]}"#
        #expect(throws: DecodingError.self) { try decoder.decode(Scale.self, from: Data(bad.utf8)) }
        for scale in Scale.all {
            #expect(try decoder.decode(Scale.self, from: encoder.encode(scale)) == scale)
        }

        #expect(try decoder.decode(ScaleDegree.self, from: Data("5".utf8)).number == 5)
        #expect(throws: DecodingError.self) { try decoder.decode(ScaleDegree.self, from: Data("8".utf8)) }
        #expect(try decoder.decode(PitchClass.self, from: Data(#""Gb""#.utf8)) == .Fs)
        #expect(try decoder.decode(PitchClass.self, from: Data("13".utf8)) == .Cs)
        #expect(String(decoding: try encoder.encode(PitchClass.Fs), as: UTF8.self) == #""F#""#)
        #expect(try decoder.decode(Pitch.self, from: Data(#""C4""#.utf8)).midi == 60)
        #expect(try decoder.decode(Pitch.self, from: Data("61".utf8)).midi == 61)
        #expect(String(decoding: try encoder.encode(Pitch(midi: 60)), as: UTF8.self) == "60")
        #expect(try decoder.decode(Voicing.self, from: Data(#""open""#.utf8)) == .open)

        let key = Key(tonic: .Eb, scale: .harmonicMinor)
        #expect(try decoder.decode(Key.self, from: encoder.encode(key)) == key)
        let keyJSON = #"{"tonic":"D","scale":"dorian"}"#
        #expect(try decoder.decode(Key.self, from: Data(keyJSON.utf8)) == Key(tonic: .D, scale: .dorian))
    }
}
