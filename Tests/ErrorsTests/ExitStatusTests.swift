// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Foundation
import Testing

/// The exit statuses worth a retry: one table in the code, which the Slurm and Kubernetes
/// recipes of docs/batch.md and its table follow.
@Suite("Exit statuses and retries")
struct ExitStatusTests {
    static let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/batch.md").path

    @Test("Every SessionError's status is in the table, none retryable but 70 and 74; the signals are retryable")
    func table() {
        let errors: [SessionError] = [.usage(""), .preset(file: "", field: "", message: ""), .data(""), .noInput(""),
                                      .unavailable(""), .software(""), .cannotCreate(""), .io("")]
        let codes = ExitStatus.table.map(\.code)
        #expect(codes == codes.sorted() && Set(codes).count == codes.count)
        for error in errors { #expect(codes.contains(error.exitStatus), "\(error.exitStatus) is not in the table") }
        #expect(ExitStatus.retryable == [70, 74, 130, 137, 143])
        #expect(ExitStatus.final == [64, 65, 66, 69, 73])
        #expect(ExitStatus.retryAdvice == "Worth retrying (a rerun resumes): 70, 74, 130, 137, 143; never: 64, 65, 66, 69, 73.")
    }

    @Test("docs/batch.md: the Kubernetes podFailurePolicy fails the Job on the final statuses, the Slurm script retries the retryable ones, the table says which")
    func recipes() throws {
        let text = try String(contentsOfFile: Self.guide, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        func codes(_ list: Substring) -> [Int32] {
            list.split(whereSeparator: { !$0.isNumber }).compactMap { Int32($0) }
        }
        let policy = try #require(text.range(of: "podFailurePolicy:"), "no podFailurePolicy in docs/batch.md")
        let failJob = try #require(text[policy.upperBound...].range(of: "action: FailJob"))
        let values = try #require(lines.first { $0.contains("values: [") && text.range(of: $0)!.lowerBound > failJob.lowerBound })
        #expect(codes(Substring(values)) == ExitStatus.final, "\(values)")
        #expect(text[policy.upperBound...].contains("type: DisruptionTarget"))
        let retried = try #require(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("70|") }, "no case of retried statuses")
        #expect(codes(Substring(retried.prefix { $0 != ")" })) == ExitStatus.retryable, "\(retried)")
        #expect(text.contains("#SBATCH --requeue"))
        for status in ExitStatus.table {
            let row = "| \(status.code) | \(status.meaning) | \(status.isRetryable ? "yes" : "no") |"
            #expect(lines.contains { $0.replacingOccurrences(of: "`", with: "") == row }, "docs/batch.md lacks the row \(row)")
        }
    }
}
