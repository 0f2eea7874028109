// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

// The plugin's UI opened and closed ten times under valgrind (Tools/lv2uihost.c plays the
// host, on an X server of the test's own): a slow check (make slow-checks), as the other
// valgrind soaks are.

@Suite("The plugin's UI opened and closed under valgrind")
struct PluginUILeakTests {
    @Test("Ten opens and closes of the UI, each drawing 8 frames: no memory of the plugin's lost, no memory error in its code",
          .enabled(if: slowChecksEnabled, "a soak under valgrind (minutes of CPU): make slow-checks runs it"),
          .enabled(if: valgrind != nil && xvfb != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/objcopy"),
                   "needs valgrind, xvfb and binutils"),
          .timeLimit(.minutes(30)))
    func openAndCloseTenTimes() async throws {
        let harness = try await PluginHarness()
        let host = harness.directory.file("lv2uihost")
        let flags = try await CLI.run(["--cflags", "lv2"], executable: "/usr/bin/pkg-config")
        let compile = try await CLI.run(["-O2", "-o", host, projectRoot + "/Tools/lv2uihost.c", "-ldl"]
                                        + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init),
                                        executable: "/usr/bin/cc", timeout: 120)
        try #require(compile.status == 0, "\(compile)")
        // valgrind 3.19 cannot read the DWARF 5 of the library; its symbol table names the frames.
        let strip = try await CLI.run(["--strip-debug", harness.bundle + "/clumsy.so"], executable: "/usr/bin/objcopy", timeout: 60)
        try #require(strip.status == 0, "\(strip)")
        let x = try await VirtualDisplay(directory: harness.directory)
        defer { x.stop() }
        let suppressions = try harness.directory.write("clumsy.supp", ValgrindReport.suppressions)
        let result = try await CLI.run([host, harness.bundle, "10"], executable: valgrind!,
                                       prefix: ["--leak-check=full", "--show-leak-kinds=definite,indirect",
                                                "--errors-for-leak-kinds=definite,indirect", "--num-callers=60", "--suppressions=" + suppressions],
                                       environment: ["DISPLAY": x.display], timeout: 1200)
        #expect(!result.timedOut && result.status == 0, "lv2uihost under valgrind: \(result.stdout)\n\(result.stderr.suffix(3000))")
        #expect(result.stdout.contains("opened and closed the UI 10 times"), "\(result.stdout)")
        let (leaks, errors) = ValgrindReport.parse(result.stderr)
        // The plugin's frames: its library (Swift modules and the C shim alike).
        func isPlugin(_ frame: String) -> Bool { frame.contains("clumsy.so)") }
        for record in leaks where record.frames.contains(where: isPlugin) {
            Issue.record("memory lost from the plugin: \(record.title)\n\(record.frames.prefix(20).joined(separator: "\n"))")
        }
        for record in errors where record.frames.first.map(isPlugin) == true {
            Issue.record("memory error in the plugin: \(record.title)\n\(record.frames.prefix(20).joined(separator: "\n"))")
        }
        print("valgrind (the UI opened and closed 10 times): \(leaks.count) unsuppressed loss records, \(errors.count) other error records\n"
              + ValgrindReport.summary(result.stderr))
    }
}
