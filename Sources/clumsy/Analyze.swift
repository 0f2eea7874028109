// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Analysis
import ArgumentParser
import EventLog
import FileOutput
import Session
import Text
#if canImport(Glibc)
import Glibc
#endif

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse any Standard MIDI File: key, chord timeline, time per chord and degree, velocities, tracks.",
        discussion: """
        Text for people (notes spelled for the estimated key with ♭ and ♯), or --json for programs (ASCII: Eb, F#, Bm7b5).
        Exit status: 0 ok, 64 bad flag, 65 not a usable MIDI file (not MIDI, truncated), 66 cannot be read or is not a regular file (a FIFO, a directory).
        """)

    @Argument(help: ArgumentHelp("The MIDI file to analyse.", valueName: "file.mid"), completion: Completions.files("mid"))
    var file: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        // A FIFO, a directory or a device is refused (66) before the reader could block on it.
        let descriptor: Int32
        do {
            descriptor = try InputFile.open(file, what: "MIDI file")
        } catch {
            throw fail(error)
        }
        defer { close(descriptor) }
        let analysis: MIDIAnalysis
        do {
            analysis = try MIDIAnalyzer.analyze(descriptor: descriptor, path: file)
        } catch {
            if StopSignal.process.isRaised { throw ExitCode(128 + StopSignal.process.raised) }
            TerminalOutput.standardError.write("clumsy: error: \(Quote.message(error.description))\n")
            TerminalOutput.standardError.flush()
            throw ExitCode(error.exitStatus)
        }
        // A stop signal cut the analysis short: print nothing of it.
        if StopSignal.process.isRaised { throw ExitCode(128 + StopSignal.process.raised) }
        let out = TerminalOutput.standardOutput
        out.write(json ? AnalysisReport.json(analysis, file: file) : AnalysisReport.text(analysis, file: file))
        out.flush()
    }
}
