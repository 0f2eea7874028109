// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIFile
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Helpers for the sound tests (AudioTests, LiveTests, SoundFontErrorTests, LeakTests):
// a strict WAV reader (16- and 24-bit PCM, 32-bit float), a few measurements on the samples, the documented
// tail formula, and a small tmpfs for disk-full runs.

// MARK: SoundFonts

/// The small General MIDI SoundFont (package timgm6mb-soundfont): fast to load, used by most tests.
let smallSoundFont = "/usr/share/sounds/sf2/TimGM6mb.sf2"

/// True when the small SoundFont is installed.
let hasSmallSoundFont = FileManager.default.fileExists(atPath: smallSoundFont)

// MARK: WAV

/// A WAV file (16- or 24-bit PCM, or 32-bit float) read back strictly: every header field
/// is checked against the others and against the file size.
struct WAVFile {
    var sampleRate: Int
    var channels: Int
    var bitsPerSample: Int
    /// True for IEEE float samples (format tag 3).
    var isFloat = false
    /// Interleaved samples on the 16-bit scale (full scale 32768), rounded and clamped.
    var samples: [Int16]
    /// Interleaved samples, exactly as stored, full scale 1.
    var values: [Double]

    /// Frames (samples per channel).
    var frameCount: Int { samples.count / max(channels, 1) }
    /// Seconds of audio.
    var duration: Double { Double(frameCount) / Double(sampleRate) }

    struct Invalid: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path) is not a valid WAV file (16/24-bit PCM or 32-bit float): \(reason)" }
    }

    init(path: String) throws {
        guard let data = bytes(of: path) else { throw Invalid(path: path, reason: "it cannot be read") }
        func fail(_ reason: String) -> Invalid { Invalid(path: path, reason: reason) }
        func u32(_ offset: Int) -> Int {
            Int(data[offset]) | Int(data[offset + 1]) << 8 | Int(data[offset + 2]) << 16 | Int(data[offset + 3]) << 24
        }
        func u16(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 }
        func tag(_ offset: Int) -> String { String(decoding: data[offset..<offset + 4], as: UTF8.self) }

        guard data.count >= 44 else { throw fail("only \(data.count) bytes") }
        guard tag(0) == "RIFF", tag(8) == "WAVE" else { throw fail("no RIFF/WAVE header") }
        guard u32(4) == data.count - 8 else { throw fail("RIFF size \(u32(4)) but the file has \(data.count) bytes") }
        var offset = 12
        var format: (tag: Int, channels: Int, rate: Int, byteRate: Int, blockAlign: Int, bits: Int)?
        var dataRange: Range<Int>?
        while offset + 8 <= data.count {
            let id = tag(offset)
            let size = u32(offset + 4)
            let body = offset + 8
            guard body + size <= data.count else { throw fail("chunk \"\(id)\" of \(size) bytes runs past the end of the file") }
            if id == "fmt " {
                guard size >= 16 else { throw fail("fmt chunk of \(size) bytes") }
                format = (u16(body), u16(body + 2), u32(body + 4), u32(body + 8), u16(body + 12), u16(body + 14))
                // WAVE_FORMAT_EXTENSIBLE (sox writes it for 24-bit): the sub-format's first two bytes are the tag.
                if u16(body) == 0xFFFE, size >= 40 { format?.tag = u16(body + 24) }
            } else if id == "data" {
                dataRange = body..<body + size
            }
            offset = body + size + (size & 1)
        }
        guard let format else { throw fail("no fmt chunk") }
        guard let dataRange else { throw fail("no data chunk") }
        guard format.tag == 1 || format.tag == 3 else { throw fail("format tag \(format.tag), not PCM (1) or float (3)") }
        guard (format.tag == 1 && (format.bits == 16 || format.bits == 24)) || (format.tag == 3 && format.bits == 32) else {
            throw fail("\(format.bits) bits per sample with format tag \(format.tag)")
        }
        let width = format.bits / 8
        guard format.channels > 0, format.blockAlign == format.channels * width,
              format.byteRate == format.rate * format.blockAlign else {
            throw fail("inconsistent fmt chunk \(format)")
        }
        guard dataRange.count % format.blockAlign == 0 else { throw fail("data size \(dataRange.count) is not whole frames") }
        sampleRate = format.rate
        channels = format.channels
        bitsPerSample = format.bits
        isFloat = format.tag == 3
        let count = dataRange.count / width
        var values = [Double](repeating: 0, count: count)
        var position = dataRange.lowerBound
        for index in 0..<count {
            switch (format.tag, width) {
            case (1, 2):
                values[index] = Double(Int16(bitPattern: UInt16(data[position]) | UInt16(data[position + 1]) << 8)) / 32768
            case (1, 3):
                let raw = UInt32(data[position]) << 8 | UInt32(data[position + 1]) << 16 | UInt32(data[position + 2]) << 24
                values[index] = Double(Int32(bitPattern: raw) >> 8) / 8_388_608
            default:
                let raw = UInt32(data[position]) | UInt32(data[position + 1]) << 8 | UInt32(data[position + 2]) << 16 | UInt32(data[position + 3]) << 24
                values[index] = Double(Float(bitPattern: raw))
            }
            position += width
        }
        self.values = values
        self.samples = values.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
    }

    /// The largest absolute sample over all channels of each frame.
    func peaks() -> [Int32] {
        var result = [Int32](repeating: 0, count: frameCount)
        samples.withUnsafeBufferPointer { buffer in
            for frame in 0..<frameCount {
                var peak: Int32 = 0
                for channel in 0..<channels { peak = max(peak, abs(Int32(buffer[frame * channels + channel]))) }
                result[frame] = peak
            }
        }
        return result
    }

    /// Mono mix (mean of the channels), as Doubles.
    func mono() -> [Double] {
        var result = [Double](repeating: 0, count: frameCount)
        samples.withUnsafeBufferPointer { buffer in
            for frame in 0..<frameCount {
                var sum = 0.0
                for channel in 0..<channels { sum += Double(buffer[frame * channels + channel]) }
                result[frame] = sum / Double(channels)
            }
        }
        return result
    }

    /// Root mean square over all channels of frames `start..<end` (clamped to the file), in sample units.
    func rms(frames: Range<Int>) -> Double {
        let lower = max(0, frames.lowerBound)
        let upper = min(frameCount, frames.upperBound)
        guard upper > lower else { return 0 }
        var sum = 0.0
        samples.withUnsafeBufferPointer { buffer in
            for index in lower * channels..<upper * channels {
                let value = Double(buffer[index])
                sum += value * value
            }
        }
        return (sum / Double((upper - lower) * channels)).squareRoot()
    }

    /// RMS over `seconds` (start, length) of audio.
    func rms(from start: Double, length: Double) -> Double {
        let first = Int((start * Double(sampleRate)).rounded())
        return rms(frames: first..<first + Int((length * Double(sampleRate)).rounded()))
    }

    /// RMS of the whole file.
    var rms: Double { rms(frames: 0..<frameCount) }

    /// The loudest RMS over consecutive windows of `length` seconds.
    func loudestWindow(length: Double) -> Double {
        let size = max(1, Int(length * Double(sampleRate)))
        return stride(from: 0, to: frameCount, by: size).map { rms(frames: $0..<$0 + size) }.max() ?? 0
    }

    /// The magnitude-weighted mean frequency (spectral centroid, Hz) of the mono mix, from
    /// Hann-windowed 4096-point FFTs over the whole file, magnitudes summed per bin.
    func spectralCentroid() -> Double {
        let size = 4096
        let signal = mono()
        var magnitudes = [Double](repeating: 0, count: size / 2 + 1)
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
        var start = 0
        while start + size <= signal.count {
            var real = (0..<size).map { signal[start + $0] * window[$0] }
            var imaginary = [Double](repeating: 0, count: size)
            fft(&real, &imaginary)
            for bin in 0...size / 2 {
                magnitudes[bin] += (real[bin] * real[bin] + imaginary[bin] * imaginary[bin]).squareRoot()
            }
            start += size
        }
        let binWidth = Double(sampleRate) / Double(size)
        let total = magnitudes.reduce(0, +)
        guard total > 0 else { return 0 }
        return magnitudes.enumerated().reduce(0) { $0 + Double($1.offset) * binWidth * $1.element } / total
    }
}

/// In-place iterative radix-2 FFT; the count must be a power of two.
func fft(_ real: inout [Double], _ imaginary: inout [Double]) {
    let count = real.count
    precondition(count > 0 && count & (count - 1) == 0, "FFT size \(count) is not a power of two")
    var j = 0
    for i in 1..<count {
        var bit = count >> 1
        while j & bit != 0 {
            j ^= bit
            bit >>= 1
        }
        j |= bit
        if i < j {
            real.swapAt(i, j)
            imaginary.swapAt(i, j)
        }
    }
    var length = 2
    while length <= count {
        let angle = -2 * Double.pi / Double(length)
        for start in stride(from: 0, to: count, by: length) {
            for k in 0..<length / 2 {
                let wr = cos(angle * Double(k)), wi = sin(angle * Double(k))
                let a = start + k, b = start + k + length / 2
                let tr = real[b] * wr - imaginary[b] * wi
                let ti = real[b] * wi + imaginary[b] * wr
                real[b] = real[a] - tr
                imaginary[b] = imaginary[a] - ti
                real[a] += tr
                imaginary[a] += ti
            }
        }
        length <<= 1
    }
}

// MARK: The documented tail

/// The tail after the session's end, as README "What comes out" and
/// `SamplerConfiguration.tailDuration` document it: 2 s of release, plus
/// `delay × ceil(ln 0.001 / ln feedback)` (one echo at feedback 0), plus the reverb's
/// `0.04 × ln 0.001 / ln(0.7 + 0.28 × room)`, at most 30 s.
func documentedTail(delay: (time: Double, feedback: Double)?, reverb: (level: Double, room: Double)?) -> Double {
    var tail = 2.0
    if let delay, delay.time > 0 {
        let echoes = delay.feedback <= 0 ? 1 : max(1, (log(0.001) / log(delay.feedback)).rounded(.up))
        tail += delay.time * echoes
    }
    if let reverb, reverb.level > 0 {
        tail += 0.04 * log(0.001) / log(0.7 + 0.28 * reverb.room)
    }
    return min(30, tail)
}

/// The `default` preset's effects (Presets/default.json): delay 0.375 s, feedback 0.3; reverb 0.25, room 0.5.
let defaultPresetTail = documentedTail(delay: (0.375, 0.3), reverb: (0.25, 0.5))

/// Frames an offline render of `seconds` of session plus `tail` holds: whole 64-frame blocks.
func expectedFrames(session seconds: Double, tail: Double, rate: Double) -> Int {
    let frames = Int(((seconds + tail) * rate).rounded(.up))
    return (frames + 63) / 64 * 64
}

// MARK: MIDI controllers

/// Values of controller `controller` on `channel` in a track, in order.
func controllerValues(_ track: [MIDIEvent], channel: UInt8, controller: UInt8) -> [UInt8] {
    track.compactMap { event in
        if case .controlChange(let c, let number, let value) = event.message, c == channel, number == controller {
            return value
        }
        return nil
    }
}

/// Programs selected on `channel` in a track, in order.
func programs(_ track: [MIDIEvent], channel: UInt8) -> [UInt8] {
    track.compactMap { event in
        if case .programChange(let c, let program) = event.message, c == channel { return program }
        return nil
    }
}
