// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Presets
import TestSupport
import Testing
@testable import Live

@Suite struct LiveCalibrationTests {
    @Test("Every bundled preset carries its measured live gain (Benchmarks/loudness.py --calibrate); a file without one gets 0 dB, whatever its name")
    func everyBundledPresetIsCalibrated() throws {
        for entry in PresetLibrary.bundled() {
            let text = try String(contentsOfFile: entry.path, encoding: .utf8)
            #expect(text.contains("\"liveGain\""), "\(entry.name) has no sound.liveGain")
            let preset = try PresetLibrary.load(entry.path)
            #expect((-10...20).contains(preset.sound.liveGain) && preset.sound.liveGain != 0, "\(entry.name): \(preset.sound.liveGain) dB")
            let gain = LiveCalibration.synthGain(liveGain: preset.sound.liveGain, base: preset.sound.gain)
            #expect(abs(gain - min(2, preset.sound.gain * pow(10, preset.sound.liveGain / 20))) < 1e-12)
        }
        // Named like a bundled preset, a file of one's own borrows nothing.
        let directory = try TemporaryDirectory()
        try #"{"tempo": 100}"#.write(toFile: directory.file("default.json"), atomically: true, encoding: .utf8)
        #expect(try PresetLibrary.load(directory.file("default.json")).sound.liveGain == 0)
    }
}
