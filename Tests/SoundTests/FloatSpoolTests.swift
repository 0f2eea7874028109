// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import MIDIWire
import TestSupport
import Testing
@testable import Sound

@Suite("The float spool: memory first, then the scratch file")
struct FloatSpoolTests {
    /// Floats 0, 1, 2, … (exact in Float up to 2^24).
    private func ramp(_ start: Int, _ count: Int) -> [Float] { (start..<(start + count)).map { Float($0) } }

    @Test("Floats read back exactly across the end of memory, a block boundary and the file, in any pieces",
          arguments: [Int64(0), 1_000, Int64(FloatSpool.blockFloats + 5), 100_000_000])
    func readsBack(_ memoryCapacity: Int64) throws {
        let temporary = try TemporaryDirectory(prefix: "clumsy-spool")
        defer { withExtendedLifetime(temporary) {} }   // only its path is used below
        let directory = temporary.path
        let spool = try FloatSpool(directory: directory, label: "a test", path: directory + "/none.wav",
                                   memoryCapacity: memoryCapacity)
        let total = FloatSpool.blockFloats + 300_000
        var written = 0
        var size = 7
        while written < total {
            let piece = ramp(written, min(size, total - written))
            try piece.withUnsafeBufferPointer { try spool.append($0) }
            written += piece.count
            size = size * 3 % 1_000_003 + 11
        }
        try spool.flush()
        #expect(spool.count == Int64(total))
        #expect(spool.memoryFloats == min(memoryCapacity, Int64(total)))
        var read = [Float](repeating: -1, count: total)
        var position = 0
        size = 5
        while position < total {
            let count = try read.withUnsafeMutableBufferPointer { all in
                try spool.read(at: Int64(position), into: UnsafeMutableBufferPointer(rebasing: all[position..<min(total, position + size)]))
            }
            #expect(count > 0)
            position += count
            size = size * 7 % 2_000_003 + 13
        }
        let wrong = read.indices.first { read[$0] != Float($0) }
        #expect(wrong == nil, "float \(wrong ?? -1) read back wrong")
        // Past the end: nothing.
        var extra = [Float](repeating: 0, count: 4)
        #expect(try extra.withUnsafeMutableBufferPointer { try spool.read(at: Int64(total), into: $0) } == 0)
    }

    @Test("Nothing is left in the directory: the scratch file is unlinked at once")
    func leavesNothing() throws {
        let temporary = try TemporaryDirectory(prefix: "clumsy-spool")
        defer { withExtendedLifetime(temporary) {} }   // only its path is used below
        let directory = temporary.path
        let spool = try FloatSpool(directory: directory, label: "a test", path: directory + "/none.wav", memoryCapacity: 10)
        try ramp(0, 100).withUnsafeBufferPointer { try spool.append($0) }
        try spool.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}

@Suite("A mix whose samples do not stay in memory")
struct ScratchFileMixTests {
    private func mixer(in directory: String, seconds: Double) throws(SoundError) -> MixRenderer {
        let part = MixPart(name: "Keys", channels: [PartChannel(channel: 0, bank: 0, program: 0)])
        return try MixRenderer(parts: [part], configuration: SamplerConfiguration(soundFont: testSoundFont),
                               mixPath: directory + "/mix.wav", stemsDirectory: nil, format: .wav,
                               mastering: Mastering(), expectedSeconds: seconds, spoolMemory: 0)
    }

    @Test("Without memory for the samples, the scratch file counts in the space check, and a disk that fills under it is a write failure that leaves nothing",
          .enabled(if: hasTestSoundFont && TinyFileSystem.isAvailable, "needs root to mount a tmpfs"))
    func scratchOnDisk() throws {
        // 8 MB: 20 s (and the tail) of 24-bit stereo WAV fit (6 bytes a frame), not with 8 bytes
        // a frame of scratch besides.
        let disk = try #require(TinyFileSystem(kibibytes: 8 * 1024))
        #expect {
            _ = try mixer(in: disk.path, seconds: 20)
        } throws: { error in
            guard case SoundError.insufficientSpace = error else { return false }
            return true
        }
        // A render that said it would be short passes the check, then outgrows the disk.
        let short = try mixer(in: disk.path, seconds: 0.1)
        #expect {
            for second in 1...60 {
                short.send(MixEvent(frame: Int64(second) * 44_100, message: .noteOn(channel: 0, note: 60, velocity: 100)))
                try short.render(toFrame: Int64(second + 1) * 44_100)
            }
            _ = try short.finish(atFrame: 61 * 44_100)
        } throws: { error in
            guard case SoundError.writeFailed(_, let reason) = error else { return false }
            return reason.contains("scratch")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }
}
