// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `clumsy batch` under a real scheduler: a single-node Slurm (Debian's slurm-wlm and munge),
/// started in a temporary directory by Tools/slurm_single_node.sh, which also stops it.
@Suite("clumsy batch under a real scheduler", .serialized)
struct BatchSlurmTests {
    static let script = projectRoot + "/Tools/slurm_single_node.sh"

    @Test("A single-node Slurm runs the batch as a job array of 4: the same files and merged manifest as one process")
    func slurmJobArray() async throws {
        for program in ["/usr/bin/sbatch", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged"] {
            try #require(FileManager.default.isExecutableFile(atPath: program), "make deps installs slurm-wlm and munge: no \(program)")
        }
        let one = try await BatchTests.whole()
        let work = try TemporaryDirectory(prefix: "batch-sbatch")
        let command = ([CLI.executable] + BatchTests.batch + ["--jobs", "1", "--quiet"]).joined(separator: " ")
        let submitted = try await CLI.run([Self.script, work.file("slurm"), "sbatch", "--wait", "--array=0-3",
                                     "--output=\(work.path)/task-%a.log", "--chdir=\(work.path)", "--wrap", command],
                                    executable: "/bin/bash", timeout: 900)
        if submitted.status == 75 {
            // The script says why (the daemons cannot run in this container);
            // the GNU parallel and SLURM_ARRAY_TASK_ID tests of BatchTests still run.
            print("skipped: \(submitted.stderr)")
            return
        }
        let logs = (0..<4).compactMap { try? String(contentsOfFile: work.file("task-\($0).log"), encoding: .utf8) }.joined()
        try #require(submitted.status == 0, "\(submitted)\n\(logs)")
        for task in 0..<4 { #expect(fileExists(work.file("out/manifest-\(task)-of-4.jsonl")), "no manifest of array task \(task)") }
        let merged = try await CLI.run(["batch", "merge", "out"], in: work.path)
        #expect(merged.status == 0, "\(merged)")
        #expect(BatchTests.tree(one.file("out")) == BatchTests.tree(work.file("out")), "the job array's files differ from the whole batch's")
        let daemons = try await CLI.run(["-f", work.file("slurm")], executable: "/usr/bin/pgrep")
        #expect(daemons.stdout.isEmpty, "left running: \(daemons.stdout)")
    }
}
