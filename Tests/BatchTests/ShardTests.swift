// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Testing
@testable import Batch

/// `--shard I/N` and the schedulers' environment, in process (the end-to-end tests run the
/// shards as processes under Slurm and GNU parallel).
@Suite("Shards")
struct ShardTests {
    @Test("I/N is read; every item falls in exactly one of N shards")
    func partition() throws {
        let shard = try Shard(parsing: "3/8")
        #expect(shard == Shard(index: 3, count: 8) && shard.description == "3/8")
        let shards = try (0..<8).map { i throws(SessionError) in try Shard(parsing: "\(i)/8") }
        for item in 0..<200 {
            #expect(shards.filter { $0.contains(item) }.count == 1, "item \(item)")
        }
        #expect(Shard.whole.contains(0) && Shard.whole.contains(199))
    }

    @Test("Anything but I/N with 0 ≤ I < N ≤ 100000 is a usage error (64) naming the flag",
          arguments: ["8/8", "-1/8", "1/0", "0/100001", "a/b", "1/2/3", "3", "", "/", "3/ 8", "١/٢"])
    func refused(text: String) {
        #expect {
            try Shard(parsing: text)
        } throws: { error in
            guard let error = error as? SessionError else { return false }
            return error.exitStatus == 64 && error.description.contains("--shard")
        }
    }

    @Test("Slurm's array task id less its minimum, with the array's count; Kubernetes' index with --shard-count or CLUMSY_SHARD_COUNT")
    func fromEnvironment() throws {
        #expect(try Shard.fromEnvironment([:], count: nil) == nil)
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"], count: nil) == Shard(index: 2, count: 4))
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "10"], count: nil)
                == Shard(index: 2, count: 4))
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "5", "CLUMSY_SHARD_COUNT": "6"], count: nil) == Shard(index: 5, count: 6))
        // The flag wins over the variable.
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "5", "CLUMSY_SHARD_COUNT": "6"], count: 10) == Shard(index: 5, count: 10))
        // An empty variable is not set.
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": ""], count: nil) == nil)
    }

    @Test("A scheduler's variable that is set but unusable is a usage error naming it",
          arguments: [(["SLURM_ARRAY_TASK_ID": "1"], "SLURM_ARRAY_TASK_COUNT"),
                      (["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"], "SLURM_ARRAY_TASK_ID"),
                      (["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"], "SLURM_ARRAY_TASK_ID"),
                      (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "2"], "SLURM_ARRAY_TASK_ID"),
                      (["JOB_COMPLETION_INDEX": "0"], "--shard-count"),
                      (["JOB_COMPLETION_INDEX": "-1", "CLUMSY_SHARD_COUNT": "2"], "JOB_COMPLETION_INDEX")])
    func unusableEnvironment(environment: [String: String], named: String) {
        #expect {
            try Shard.fromEnvironment(environment, count: nil)
        } throws: { error in
            guard let error = error as? SessionError else { return false }
            return error.exitStatus == 64 && error.description.contains(named)
        }
    }
}
