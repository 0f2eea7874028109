// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import FileOutput
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scratch store of 32-bit floats, written once, then read back from the start as often as
/// needed. The first `memoryCapacity` floats stay in memory; the rest go to an anonymous
/// scratch file (created in a directory and unlinked at once, so nothing is left behind
/// whatever happens), through a 256 KiB buffer.
///
/// Memory first because writing to the file cost more than the floats are worth: on 600 s
/// of `default` (212 MB) the kernel spent 0.25 s copying them into the page cache and 0.13 s
/// clearing its pages on the mixing thread, and 0.1 s copying them back out in each mastering
/// pass. Memory is taken in 16 MiB blocks (anonymous maps), so a short render takes only what
/// it needs. Ordinary pages, never huge pages: a huge page is cleared in one go when
/// first touched, and on this project's virtual machine memory the guest has not touched for
/// a few seconds is slow to clear (likely handed back to the host); 212 MB in huge pages took
/// 0.73–0.76 s to clear after a pause, in 4 KiB pages 0.10–0.13 s (stop 59, docs/benchmarks.md).
final class FloatSpool {
    private let descriptor: Int32
    /// What the spool holds, for error messages (e.g. "the keys stem").
    let label: String
    /// The file it stands in for (for error messages).
    let path: String
    /// Floats kept in memory at most.
    let memoryCapacity: Int64
    private var blocks: [UnsafeMutablePointer<Float>] = []
    /// False once a block could not be mapped: everything after goes to the file.
    private var memoryAvailable = true
    /// Floats in memory (the first ones).
    private var inMemory: Int64 = 0
    private var buffer: [Float] = []
    private static let bufferFloats = 1 << 16
    /// Floats per memory block (16 MiB).
    static let blockFloats = 1 << 22
    /// Floats written so far.
    private(set) var count: Int64 = 0

    /// Creates the scratch file in `directory`; up to `memoryCapacity` floats will be kept in memory.
    init(directory: String, label: String, path: String, memoryCapacity: Int64 = 0) throws(SoundError) {
        // A file with no name (TemporaryName.anonymous): nothing is left of it however the run ends.
        let descriptor: Int32
        do {
            descriptor = try TemporaryName.anonymous(in: directory, for: "spool").rawValue
        } catch {
            throw .outputNotWritable(path: path, reason: "no scratch file can be made in \"\(directory)\" (\(error.text))")
        }
        self.descriptor = descriptor
        self.label = label
        self.path = path
        self.memoryCapacity = max(0, memoryCapacity)
    }

    deinit {
        close(descriptor)
        for block in blocks { munmap(block, Self.blockFloats * MemoryLayout<Float>.stride) }
    }

    /// Floats kept in memory so far.
    var memoryFloats: Int64 { inMemory }

    /// Appends floats.
    func append(_ samples: UnsafeBufferPointer<Float>) throws(SoundError) {
        var start = 0
        // Memory first, while the capacity lasts and the blocks can be had.
        while start < samples.count && count == inMemory && inMemory < memoryCapacity && memoryAvailable {
            let blockIndex = Int(inMemory / Int64(Self.blockFloats))
            if blockIndex == blocks.count && !addBlock() { break }
            let offset = Int(inMemory % Int64(Self.blockFloats))
            let take = min(samples.count - start, Self.blockFloats - offset, Int(memoryCapacity - inMemory))
            (blocks[blockIndex] + offset).update(from: samples.baseAddress! + start, count: take)
            start += take
            inMemory += Int64(take)
            count += Int64(take)
        }
        if buffer.capacity < Self.bufferFloats && start < samples.count { buffer.reserveCapacity(Self.bufferFloats) }
        while start < samples.count {
            let room = Self.bufferFloats - buffer.count
            let take = min(room, samples.count - start)
            buffer.append(contentsOf: samples[start..<start + take])
            start += take
            if buffer.count == Self.bufferFloats { try flush() }
        }
    }

    private func addBlock() -> Bool {
        let bytes = Self.blockFloats * MemoryLayout<Float>.stride
        guard let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapped != MAP_FAILED else {
            memoryAvailable = false
            return false
        }
        #if os(Linux)
        // Never huge pages, also where the kernel would give them unasked (THP "always").
        _ = madvise(mapped, bytes, MADV_NOHUGEPAGE)
        #endif
        blocks.append(mapped.bindMemory(to: Float.self, capacity: Self.blockFloats))
        return true
    }

    /// Writes the buffered floats to the file.
    func flush() throws(SoundError) {
        guard !buffer.isEmpty else { return }
        let bytes = buffer.count * 4
        let offset = off_t((count - inMemory) * 4)
        var done = 0
        let failure: Int32? = buffer.withUnsafeBytes { raw -> Int32? in
            while done < bytes {
                let result = pwrite(descriptor, raw.baseAddress! + done, bytes - done, offset + off_t(done))
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if result == 0 { return ENOSPC }
                done += result
            }
            return nil
        }
        if let failure {
            throw .writeFailed(path: path, reason: "the scratch file for \(label) could not be written (\(errorText(failure)))")
        }
        count += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads up to `destination.count` floats starting at float `position`; returns how many.
    func read(at position: Int64, into destination: UnsafeMutableBufferPointer<Float>) throws(SoundError) -> Int {
        let wanted = Int(min(Int64(destination.count), count - position))
        guard wanted > 0 else { return 0 }
        var done = 0
        // From memory.
        while done < wanted && position + Int64(done) < inMemory {
            let at = position + Int64(done)
            let blockIndex = Int(at / Int64(Self.blockFloats))
            let offset = Int(at % Int64(Self.blockFloats))
            let take = min(wanted - done, Self.blockFloats - offset, Int(inMemory - at))
            (destination.baseAddress! + done).update(from: blocks[blockIndex] + offset, count: take)
            done += take
        }
        // From the file.
        let raw = UnsafeMutableRawPointer(destination.baseAddress! + done)
        let fileOffset = off_t((position + Int64(done) - inMemory) * 4)
        let bytes = (wanted - done) * 4
        var read = 0
        while read < bytes {
            let result = pread(descriptor, raw + read, bytes - read, fileOffset + off_t(read))
            if result < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: path, reason: "the scratch file for \(label) could not be read (\(errorText(errno)))")
            }
            if result == 0 { break }
            read += result
        }
        return done + read / 4
    }
}
