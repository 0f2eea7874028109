#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An anonymous scratch file of 32-bit floats: created in a directory and unlinked at once,
/// so nothing is left behind whatever happens; written once, then read back from the start
/// as often as needed. Writes go through a 256 KiB buffer.
final class FloatSpool {
    private let descriptor: Int32
    /// What the spool holds, for error messages (e.g. "the keys stem").
    let label: String
    /// The file it stands in for (for error messages).
    let path: String
    private var buffer: [Float] = []
    private static let bufferFloats = 1 << 16
    /// Floats written so far.
    private(set) var count: Int64 = 0

    /// Creates the scratch file in `directory`.
    init(directory: String, label: String, path: String) throws(SoundError) {
        var template = Array((directory + "/.clumsy-spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw .outputNotWritable(path: path, reason: "no scratch file can be made in \"\(directory)\" (\(errorText(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
        self.label = label
        self.path = path
        buffer.reserveCapacity(Self.bufferFloats)
    }

    deinit { close(descriptor) }

    /// Appends floats.
    func append(_ samples: UnsafeBufferPointer<Float>) throws(SoundError) {
        var start = 0
        while start < samples.count {
            let room = Self.bufferFloats - buffer.count
            let take = min(room, samples.count - start)
            buffer.append(contentsOf: samples[start..<start + take])
            start += take
            if buffer.count == Self.bufferFloats { try flush() }
        }
    }

    /// Writes the buffered floats to the file.
    func flush() throws(SoundError) {
        guard !buffer.isEmpty else { return }
        let bytes = buffer.count * 4
        let offset = off_t(count * 4)
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
        let raw = UnsafeMutableRawPointer(destination.baseAddress!)
        while done < wanted * 4 {
            let result = pread(descriptor, raw + done, wanted * 4 - done, off_t(position * 4) + off_t(done))
            if result < 0 {
                if errno == EINTR { continue }
                throw .writeFailed(path: path, reason: "the scratch file for \(label) could not be read (\(errorText(errno)))")
            }
            if result == 0 { break }
            done += result
        }
        return done / 4
    }
}
