// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Analysis
import Errors
import MIDIFile
import Pictures
import Studio
import Text
#if canImport(Glibc)
import Glibc
#endif

/// One reader under fuzzing: its seed inputs, the tokens of its format, and what one input
/// must do: be accepted, or be refused with a clean error (65, or 64 for a preset's flags).
/// Anything else — another error, a trap, a hang, runaway memory — is a finding.
public struct FuzzTarget: Sendable {
    /// What a reader did with an input that it did not crash on.
    public enum Outcome: Equatable, Sendable {
        case accepted
        case rejected
    }

    /// A finding: an input that gave an error a reader must never give for bad data.
    public struct Finding: Error, CustomStringConvertible {
        public var description: String
    }

    public let name: String
    public let seeds: [[UInt8]]
    public let tokens: [[UInt8]]
    public let structure: Mutator.Structure
    /// Runs one input, which is also in the file at the path given (for readers of files).
    public let check: @Sendable (_ input: [UInt8], _ path: String) throws -> Outcome

    public init(name: String, seeds: [[UInt8]], tokens: [[UInt8]], structure: Mutator.Structure,
                check: @escaping @Sendable (_ input: [UInt8], _ path: String) throws -> Outcome) {
        self.name = name
        self.seeds = seeds
        self.tokens = tokens
        self.structure = structure
        self.check = check
    }

    /// A Session error as an outcome: bad data (65) and bad flags (64) are clean refusals.
    static func outcome(_ body: () throws(SessionError) -> Void) throws -> Outcome {
        do {
            try body()
            return .accepted
        } catch {
            guard error.exitStatus == 65 || error.exitStatus == 64 else { throw Finding(description: "exit \(error.exitStatus): \(error)") }
            return .rejected
        }
    }
}

/// What a campaign did.
public struct FuzzReport: Sendable, CustomStringConvertible {
    public var target: String
    public var inputs = 0
    public var accepted = 0
    public var rejected = 0
    /// Wall seconds of the whole campaign.
    public var seconds = 0.0
    /// CPU seconds (of the thread that reads) of its slowest input: a reader that hangs spins,
    /// while a machine busy with other work slows the wall clock, not this.
    public var longest = 0.0
    public var findings: [String] = []

    public var description: String {
        "fuzz \(target): \(inputs) inputs, \(accepted) accepted, \(rejected) rejected cleanly, \(findings.count) findings, "
            + "\(Format.fixed(seconds, decimals: 1)) s, slowest input \(Format.fixed(longest * 1000, decimals: 1)) ms of CPU"
    }
}

extension FuzzTarget {
    /// Runs `iterations` mutated inputs (seeded by `seed`) through the target. Each input is
    /// written to `scratch` first, so the file left there after a crash is the crashing input.
    public func campaign(iterations: Int, seed: UInt64, scratch: String) -> FuzzReport {
        var mutator = Mutator(seeds: seeds, tokens: tokens, structure: structure, seed: seed)
        var report = FuzzReport(target: name)
        let start = Self.now()
        for _ in 0..<iterations {
            let input = mutator.next()
            Self.write(input, to: scratch)
            let before = Self.threadCPU()
            do {
                switch try check(input, scratch) {
                case .accepted: report.accepted += 1
                case .rejected: report.rejected += 1
                }
            } catch {
                if report.findings.count < 20 {
                    report.findings.append("\(error): \(String(decoding: input.prefix(300), as: UTF8.self))")
                }
            }
            report.longest = max(report.longest, Self.threadCPU() - before)
            report.inputs += 1
        }
        report.seconds = Self.now() - start
        return report
    }

    static func now() -> Double { clock(CLOCK_MONOTONIC) }

    /// CPU seconds this thread has run.
    static func threadCPU() -> Double { clock(CLOCK_THREAD_CPUTIME_ID) }

    private static func clock(_ id: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(id, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Writes `bytes` to `path` (created or truncated).
    public static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if count <= 0 { return }
            done += count
        }
    }
}
