#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads Standard MIDI Files (formats 0, 1 and 2, ticks-per-quarter time
/// division).
///
/// Handles running status (kept across meta and system-exclusive events,
/// leniently, as most readers do), meta events, system-exclusive events
/// (0xF0 and 0xF7), variable-length quantities of up to 4 bytes, and skips
/// unknown chunks and header bytes beyond the standard six. Note on with velocity 0 is kept as `.noteOn`. An End of Track
/// ends a track (anything after it in the chunk is ignored); a track
/// without one is accepted as is. Garbage and truncated data make it throw
/// `.malformed`; it never traps and always terminates, since every step
/// consumes input.
public enum MIDIFileReader {
    /// Reads and parses the file at `path`.
    /// - Throws: `.cannotRead` (with the `strerror` text) if it cannot be
    ///   opened or read; `.malformed` / `.unsupported` (naming `path`) if its
    ///   contents are not a usable MIDI file.
    public static func read(path: String) throws(MIDIFileError) -> MIDIFileContents {
        let bytes = try loadFile(path)
        return try parse(bytes, source: path)
    }

    /// Parses the bytes of a whole MIDI file held in memory.
    /// - Throws: `.malformed` (path "<bytes>", with the byte offset) or `.unsupported`.
    public static func parse(_ bytes: [UInt8]) throws(MIDIFileError) -> MIDIFileContents {
        try parse(bytes, source: "<bytes>")
    }

    static func parse(_ bytes: [UInt8], source: String) throws(MIDIFileError) -> MIDIFileContents {
        var parser = MIDIByteParser(bytes: bytes, source: source)
        return try parser.parseFile()
    }

    private static func loadFile(_ path: String) throws(MIDIFileError) -> [UInt8] {
        func failure(_ step: String) -> MIDIFileError {
            .cannotRead(path: path, reason: "\(step): \(String(cString: strerror(errno)))")
        }
        var fd: Int32
        repeat {
            fd = open(path, O_RDONLY | O_CLOEXEC)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        defer { _ = close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                systemRead(fd, raw.baseAddress!, raw.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("reading")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    private static func systemRead(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.read(fd, base, count)
        #elseif canImport(Musl)
        return Musl.read(fd, base, count)
        #else
        return Darwin.read(fd, base, count)
        #endif
    }
}
