import Foundation
import Testing
@testable import Sound

@Suite("The float spool: memory first, then the scratch file")
struct FloatSpoolTests {
    /// Floats 0, 1, 2, … (exact in Float up to 2^24).
    private func ramp(_ start: Int, _ count: Int) -> [Float] { (start..<(start + count)).map { Float($0) } }

    @Test("Floats read back exactly across the end of memory, a block boundary and the file, in any pieces",
          arguments: [Int64(0), 1_000, Int64(FloatSpool.blockFloats + 5), 100_000_000])
    func readsBack(_ memoryCapacity: Int64) throws {
        let directory = FileManager.default.temporaryDirectory.path
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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try FloatSpool(directory: directory, label: "a test", path: directory + "/none.wav", memoryCapacity: 10)
        try ramp(0, 100).withUnsafeBufferPointer { try spool.append($0) }
        try spool.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
