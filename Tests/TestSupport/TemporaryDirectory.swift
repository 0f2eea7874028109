import Foundation

/// A fresh directory under the system temporary directory, removed (with everything in it) when
/// the last reference goes: the one temporary-directory helper of every test target.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Makes `<tmp>/<prefix>-<UUID>`.
    public init(prefix: String = "clumsy-tests") throws {
        path = NSTemporaryDirectory() + "\(prefix)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The directory as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Path of `name` inside this directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Every entry, hidden ones included, sorted.
    public func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Entries whose names start with "." (AtomicFile's temporaries look like `.name.pid.random.tmp`).
    public func hiddenEntries() -> [String] { entries().filter { $0.hasPrefix(".") } }

    /// The entries of the subdirectory `name`, sorted.
    public func entriesOf(_ name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: file(name))) ?? []).sorted()
    }

    /// Writes `text` to `name` in this directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let path = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
