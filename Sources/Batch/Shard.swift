// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Text

/// `--shard I/N`: this process renders the items whose index k has k mod N = I.
///
/// Without the flag it comes from the scheduler's environment: a Slurm job array's
/// `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (less `SLURM_ARRAY_TASK_MIN`, for an
/// array that does not start at 0), or a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` with
/// the count from `--shard-count` or `CLUMSY_SHARD_COUNT` (Kubernetes does not export its
/// `completions`). Otherwise 0/1: every item.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// I, 0…N−1.
    public let index: Int
    /// N, 1…100000.
    public let count: Int

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Every item.
    public static let whole = Shard(index: 0, count: 1)

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// True when this shard renders item `k`.
    public func contains(_ k: Int) -> Bool { k % count == index }

    /// Reads `I/N`. - Throws: `.usage` (64).
    public init(parsing text: String, source: String = "--shard") throws(SessionError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw .usage("\(source) \(Quote.text(text)) is not accepted; expected I/N, e.g. 3/8 (items with index mod N = I)")
        }
        try self.init(checking: i, n, source: source)
    }

    private init(checking i: Int, _ n: Int, source: String) throws(SessionError) {
        guard (1...100_000).contains(n), (0..<n).contains(i) else {
            throw .usage("\(source) \(i)/\(n) is out of range; expected N in 1…100000 and I in 0…N−1")
        }
        self.init(index: i, count: n)
    }

    /// The shard named by a scheduler's environment, or nil when none is.
    /// - Throws: `.usage` (64) for a variable that is set but unusable.
    public static func fromEnvironment(_ environment: [String: String], count flagCount: Int?) throws(SessionError) -> Shard? {
        func number(_ name: String) throws(SessionError) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text), value >= 0 else {
                throw .usage("$\(name)=\(Quote.text(text)) is not a whole number (clumsy batch reads it for its shard; or give --shard I/N)")
            }
            return value
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            guard let count = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw .usage("$SLURM_ARRAY_TASK_ID is set but $SLURM_ARRAY_TASK_COUNT is not; give --shard I/N")
            }
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            return try Shard(checking: id - minimum, count, source: "$SLURM_ARRAY_TASK_ID")
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            let environmentCount = try number("CLUMSY_SHARD_COUNT")
            guard let count = flagCount ?? environmentCount else {
                throw .usage("$JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not the number of shards: give --shard-count N (the Job's completions) or set CLUMSY_SHARD_COUNT")
            }
            return try Shard(checking: index, count, source: "$JOB_COMPLETION_INDEX")
        }
        return nil
    }
}
