// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import PackagePlugin

/// Writes `Version.swift` (`Clumsy.version`) from the package's VERSION file at build time, so
/// VERSION is the one place the version is written: the program, the plugin's Turtle, the
/// manual pages, `make dist` and the Debian package all read it. The build runs the generator
/// again whenever VERSION changes (it is the command's input file).
@main
struct VersionPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let version = context.package.directoryURL.appending(path: "VERSION")
        let output = context.pluginWorkDirectoryURL.appending(path: "Version.swift")
        return [.buildCommand(displayName: "Clumsy version from VERSION",
                              executable: try context.tool(named: "clumsy-version").url,
                              arguments: [version.path, output.path],
                              inputFiles: [version], outputFiles: [output])]
    }
}
