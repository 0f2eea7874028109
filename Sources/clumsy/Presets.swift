// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import Engine
import Errors
import EventLog
import Presets
import Sinks
import Text

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the bundled presets: name and description.",
        discussion: "`clumsy presets show <name>` prints one, to copy and change: clumsy presets show polska > my-polska.json",
        subcommands: [List.self, Show.self], defaultSubcommand: List.self)
}

extension Presets {
    /// Prints a bundled preset's file as it is.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a bundled preset's JSON (to copy it and change it).")

        @Argument(help: "A bundled preset's name.", completion: Completions.presets)
        var name: String

        func run() throws {
            let bytes: [UInt8]
            do throws(SessionError) {
                let path = try PresetLibrary.locate(name)
                // Only a bundled preset: a path would print any readable file raw, escapes and all.
                guard PresetLibrary.bundled().contains(where: { $0.path == path }) else {
                    throw .noInput("\(Quote.text(name)) is not a bundled preset: presets show prints those (clumsy presets lists them); "
                        + "check a file of your own with clumsy validate")
                }
                bytes = try Preset.readFile(path)
            } catch {
                throw fail(error)
            }
            let out = TerminalOutput.standardOutput
            out.write(String(decoding: bytes, as: UTF8.self))
            out.flush()
        }
    }
}

extension Presets {
  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the bundled presets: name and description.")

    func run() throws {
        let out = TerminalOutput.standardOutput
        let presets = PresetLibrary.bundled()
        guard !presets.isEmpty else {
            throw fail(.noInput("the bundled presets were not found (set CLUMSY_PRESETS to the Presets directory)"))
        }
        let width = presets.map { Quote.text($0.name).count }.max() ?? 0
        // On a terminal each line fits its width (cut with "…"); in a pipe it is whole.
        let room = out.columns.map { max(16, $0 - width - 3) }
        for entry in presets {
            let name = Quote.text(entry.name)
            var description: String
            do {
                description = Quote.text(try Preset.load(path: entry.path).description, limit: 2000)
            } catch {
                description = "(invalid: \(Quote.text(error.description, limit: 2000)))"
            }
            if let room, description.count > room { description = description.prefix(room - 1) + "…" }
            out.write(name + String(repeating: " ", count: width - name.count + 2) + description + "\n")
        }
        out.flush()
    }
  }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check preset files; print every problem with its field path.",
        discussion: "Exit status: 0 if all are valid, 65 if any is invalid, 66 if any cannot be read.")

    @Argument(help: "Preset files (or bundled preset names) to check.", completion: Completions.files("json"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one preset file") }
    }

    func run() throws {
        let out = TerminalOutput.standardOutput
        let err = TerminalOutput.standardError
        var status: Int32 = 0
        for file in files {
            var problems: [SessionError]
            do throws(SessionError) {
                problems = try Preset.problems(path: PresetLibrary.locate(file))
                // What ties the whole session together (the layout fits, the register is MIDI).
                if problems.isEmpty {
                    do {
                        problems = try SessionPlan.sceneProblems(ofPreset: file)
                    } catch {
                        problems = [error]
                    }
                }
            } catch {
                problems = [error]
            }
            if problems.isEmpty {
                out.write("ok: \(Quote.text(file, limit: 2 * Quote.defaultLimit))\n")
                continue
            }
            out.flush()
            for problem in problems {
                err.write("clumsy: error: \(Quote.message(problem.description))\n")
                status = max(status, problem.exitStatus == 66 ? 66 : 65)
            }
            err.flush()
        }
        out.flush()
        if status != 0 { throw ExitCode(status) }
    }
}

struct Tones: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the tones for the keys and the bass, and a SoundFont's presets as bank:program.")

    @Option(help: ArgumentHelp("Also list this SoundFont's presets, each as the bank:program that --tone and a voice's tone take.", valueName: "file"),
            completion: Completions.files("sf2", "sf3"))
    var soundfont: String?

    func run() throws {
        // Read first: a bad SoundFont prints nothing but its error.
        let presets: [(tone: String, name: String)]?
        do throws(SessionError) { presets = try soundfont.map { path throws(SessionError) in try ToneCatalog.soundFontPresets(path) } } catch {
            throw fail(error)
        }
        let out = TerminalOutput.standardOutput
        out.write("keys tones (--tone, keys.tone):\n")
        for tone in ToneCatalog.keys { out.write("  \(pad(tone.name))\(tone.summary)\n") }
        out.write("bass tones (bass.tone):\n")
        for tone in ToneCatalog.bass { out.write("  \(pad(tone.name))\(tone.summary)\n") }
        if let soundfont, let presets {
            out.write("presets of \(Quote.text(soundfont)) (--tone bank:program, any voice's tone):\n")
            for preset in presets { out.write("  \(pad(preset.tone))\(Quote.text(preset.name))\n") }
        } else {
            out.write("any voice also takes a preset of the SoundFont as bank:program (0:65); clumsy tones --soundfont <file> lists them\n")
        }
        out.flush()
    }

    private func pad(_ name: String) -> String { name + String(repeating: " ", count: max(2, 17 - name.count)) }
}
