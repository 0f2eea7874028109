import Foundation
import Testing

/// A single-node Slurm (Debian's slurm-wlm and munge) configured in a temporary directory:
/// munged on its own socket, slurmctld and slurmd on random ports, stopped again on `stop()`.
final class SingleNodeSlurm {
    let directory: TemporaryDirectory
    private var daemons: [Process] = []
    private var mungePID: Int32?
    var environment: [String: String?] { ["SLURM_CONF": directory.file("slurm.conf")] }

    static let programs = ["/usr/sbin/munged", "/usr/sbin/mungekey", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch", "/usr/bin/sinfo"]

    /// Why Slurm cannot run here, or nil.
    static var missing: String? {
        let absent = programs.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        return absent.isEmpty ? nil : "\(absent.joined(separator: ", ")) not installed (apt-get install slurm-wlm munge)"
    }

    init() throws {
        directory = try TemporaryDirectory(prefix: "slurm")
        chmod(directory.path, 0o700)   // munged refuses a socket directory others can write
    }

    /// Starts the daemons and waits for the node to be idle; the reason on failure.
    func start() throws -> String? {
        let d = directory.path
        let key = try CLI.run(["-c", "-k", d + "/munge.key"], executable: "/usr/sbin/mungekey")
        guard key.status == 0 else { return "mungekey failed: \(key.stderr)" }
        let munge = try CLI.run(["-f", "--socket=\(d)/munge.sock", "--key-file=\(d)/munge.key", "--log-file=\(d)/munged.log",
                                 "--pid-file=\(d)/munged.pid", "--seed-file=\(d)/munged.seed"], executable: "/usr/sbin/munged")
        mungePID = (try? String(contentsOfFile: d + "/munged.pid", encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard munge.status == 0, mungePID != nil else { return "munged did not start: \(munge.stderr)" }
        try FileManager.default.createDirectory(atPath: d + "/state", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: d + "/spool", withIntermediateDirectories: true)
        try config().write(toFile: d + "/slurm.conf", atomically: true, encoding: .utf8)
        daemons.append(try launch("/usr/sbin/slurmctld", ["-D", "-i", "-f", d + "/slurm.conf"], log: "ctld.out"))
        usleep(500_000)
        daemons.append(try launch("/usr/sbin/slurmd", ["-D", "-f", d + "/slurm.conf"], log: "slurmd.out"))
        for _ in 0..<120 {
            let state = try CLI.run(["-h", "-o", "%T"], executable: "/usr/bin/sinfo", environment: environment)
            if state.stdout.contains("idle") { return nil }
            usleep(250_000)
        }
        let logs = ["ctld.out", "slurmd.out", "slurmctld.log", "slurmd.log"].compactMap { try? String(contentsOfFile: d + "/" + $0, encoding: .utf8) }
        return "the node did not come up within 30 s: \(logs.joined(separator: "\n").suffix(1500))"
    }

    private func config() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "localhost"
        let port = Int.random(in: 20_000...40_000)
        let d = directory.path
        return """
            ClusterName=clumsytest
            SlurmctldHost=\(host)(127.0.0.1)
            SlurmctldPort=\(port)
            SlurmdPort=\(port + 1)
            AuthType=auth/munge
            AuthInfo=socket=\(d)/munge.sock
            CredType=cred/munge
            SlurmUser=\(NSUserName())
            StateSaveLocation=\(d)/state
            SlurmdSpoolDir=\(d)/spool
            SlurmctldPidFile=\(d)/slurmctld.pid
            SlurmdPidFile=\(d)/slurmd.pid
            SlurmctldLogFile=\(d)/slurmctld.log
            SlurmdLogFile=\(d)/slurmd.log
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            SchedulerType=sched/builtin
            SelectType=select/cons_tres
            SelectTypeParameters=CR_CPU
            MpiDefault=none
            ReturnToService=2
            JobCompType=jobcomp/none
            AccountingStorageType=accounting_storage/none
            JobAcctGatherType=jobacct_gather/none
            SwitchType=switch/none
            NodeName=\(host) NodeAddr=127.0.0.1 CPUs=\(ProcessInfo.processInfo.activeProcessorCount) State=UNKNOWN
            PartitionName=debug Nodes=\(host) Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES

            """
    }

    private func launch(_ program: String, _ arguments: [String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SLURM_CONF"] = directory.file("slurm.conf")
        process.environment = environment
        FileManager.default.createFile(atPath: directory.file(log), contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file(log)))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Stops slurmd, slurmctld and munged, and waits for each to end.
    func stop() {
        for daemon in daemons.reversed() where daemon.isRunning {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        daemons = []
        if let pid = mungePID {
            kill(pid, SIGTERM)
            for _ in 0..<100 where kill(pid, 0) == 0 { usleep(50_000) }
            mungePID = nil
        }
    }

    deinit { stop() }
}

@Suite("clumsy batch under a real scheduler", .serialized)
struct BatchSlurmTests {
    @Test("A single-node Slurm runs the batch as a job array of 4: the same files and merged manifest as one process")
    func slurmJobArray() throws {
        if let reason = SingleNodeSlurm.missing {
            print("skipped: \(reason); the GNU parallel and SLURM_ARRAY_TASK_ID tests of BatchTests still run")
            return
        }
        let slurm = try SingleNodeSlurm()
        defer { slurm.stop() }
        if let reason = try slurm.start() {
            print("skipped: Slurm cannot run in this container: \(reason)")
            return
        }
        let one = try BatchTests.whole()
        let work = try TemporaryDirectory(prefix: "batch-sbatch")
        let command = ([CLI.executable] + BatchTests.batch + ["--jobs", "1", "--quiet"]).joined(separator: " ")
        let submitted = try CLI.run(["--wait", "--array=0-3", "--output=\(work.path)/task-%a.log", "--chdir=\(work.path)", "--wrap", command],
                                    executable: "/usr/bin/sbatch", environment: slurm.environment, timeout: 600)
        let logs = (0..<4).compactMap { try? String(contentsOfFile: work.file("task-\($0).log"), encoding: .utf8) }.joined()
        try #require(submitted.status == 0, "\(submitted)\n\(logs)")
        for task in 0..<4 { #expect(fileExists(work.file("out/manifest-\(task)-of-4.jsonl")), "no manifest of array task \(task)") }
        let merged = try CLI.run(["batch", "merge", "out"], in: work.path)
        #expect(merged.status == 0, "\(merged)")
        #expect(BatchTests.tree(one.file("out")) == BatchTests.tree(work.file("out")), "the job array's files differ from the whole batch's")
    }
}
