// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Sound

/// The small General MIDI SoundFont used by the tests (Debian package timgm6mb-soundfont).
let testSoundFont = "/usr/share/sounds/sf2/TimGM6mb.sf2"

/// Whether the test SoundFont is installed.
let hasTestSoundFont = FileManager.default.fileExists(atPath: testSoundFont)

/// A 16-bit PCM WAV file, decoded.
struct WAVFile {
    var channels: Int
    var sampleRate: Int
    /// Interleaved samples.
    var samples: [Int16]

    /// Frames per channel.
    var frameCount: Int { samples.count / channels }

    /// One channel as floats in −1…1.
    func channel(_ index: Int) -> [Double] {
        stride(from: index, to: samples.count, by: channels).map { Double(samples[$0]) / 32768 }
    }

    enum ReadError: Error { case notWAV(String) }

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF",
              String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE"
        else { throw ReadError.notWAV("no RIFF/WAVE header") }
        var offset = 12
        var channels = 0, rate = 0, bits = 0
        var samples: [Int16]?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                guard u16(body) == 1 else { throw ReadError.notWAV("format \(u16(body)) is not PCM") }
                channels = u16(body + 2)
                rate = u32(body + 4)
                bits = u16(body + 14)
            } else if id == "data" {
                guard bits == 16 else { throw ReadError.notWAV("\(bits) bits per sample") }
                let end = min(body + size, bytes.count)
                var values = [Int16]()
                values.reserveCapacity((end - body) / 2)
                var index = body
                while index + 1 < end {
                    values.append(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8))
                    index += 2
                }
                samples = values
            }
            offset = body + size + (size & 1)
        }
        guard let samples, channels > 0 else { throw ReadError.notWAV("no fmt or data chunk") }
        self.channels = channels
        self.sampleRate = rate
        self.samples = samples
    }
}

/// Root-mean-square of `signal[range]` (clamped to the signal).
func rms(_ signal: [Double], _ range: Range<Int>) -> Double {
    let lower = max(0, range.lowerBound), upper = min(signal.count, range.upperBound)
    guard upper > lower else { return 0 }
    var sum = 0.0
    for index in lower..<upper { sum += signal[index] * signal[index] }
    return (sum / Double(upper - lower)).squareRoot()
}

/// Spectral centroid in Hz of `count` samples from `start` (Hann window, plain DFT on every second bin).
func spectralCentroid(_ signal: [Double], start: Int, count: Int, sampleRate: Double) -> Double {
    let window = (0..<count).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(count - 1)) }
    let x = (0..<count).map { signal[start + $0] * window[$0] }
    var weighted = 0.0, total = 0.0
    for bin in stride(from: 1, to: count / 2, by: 2) {
        let step = 2 * Double.pi * Double(bin) / Double(count)
        var re = 0.0, im = 0.0
        // Rotate a phasor instead of calling sin/cos per sample.
        let c = cos(step), s = sin(step)
        var pr = 1.0, pi = 0.0
        for value in x {
            re += value * pr
            im -= value * pi
            let next = pr * c - pi * s
            pi = pr * s + pi * c
            pr = next
        }
        let magnitude = (re * re + im * im).squareRoot()
        weighted += magnitude * Double(bin) * sampleRate / Double(count)
        total += magnitude
    }
    return total > 0 ? weighted / total : 0
}

/// Renders a scripted performance into a WAV file and returns its path.
/// `events` are (frame, action) pairs in time order; the render covers `frames` frames.
func renderScript(
    _ configuration: SamplerConfiguration,
    to path: String,
    frames: Int64,
    events: [(frame: Int64, action: (Sampler) -> Void)]
) throws {
    let sampler = try Sampler(configuration: configuration)
    let renderer = try AudioFileRenderer(sampler: sampler, path: path, format: .wav)
    for event in events {
        try renderer.render(toFrame: event.frame)
        event.action(sampler)
    }
    try renderer.render(toFrame: frames)
    try renderer.finish()
}

/// Captures what is written to file descriptors 1 and 2 while `body` runs.
func capturingStandardOutputAndError(_ body: () throws -> Void) rethrows -> String {
    fflush(nil)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString)").path
    let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    let savedOut = dup(1), savedErr = dup(2)
    dup2(file, 1)
    dup2(file, 2)
    defer {
        fflush(nil)
        dup2(savedOut, 1)
        dup2(savedErr, 2)
        close(savedOut)
        close(savedErr)
        close(file)
        unlink(path)
    }
    try body()
    fflush(nil)
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
