import ArgumentParser
import Session

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the bundled presets: name and description.")

    func run() throws {
        let out = TerminalOutput.standardOutput
        let presets = PresetLibrary.bundled()
        guard !presets.isEmpty else {
            throw fail(.noInput("the bundled presets were not found (set CLUMSY_PRESETS to the Presets directory)"))
        }
        let width = presets.map { Quote.text($0.name).count }.max() ?? 0
        for entry in presets {
            let name = Quote.text(entry.name)
            let description: String
            do {
                description = Quote.text(try Preset.load(path: entry.path).description, limit: 200)
            } catch {
                description = "(invalid: \(Quote.text(error.description, limit: 200)))"
            }
            out.write(name + String(repeating: " ", count: width - name.count + 2) + description + "\n")
        }
        out.flush()
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check preset files; print every problem with its field path.",
        discussion: "Exit status: 0 if all are valid, 65 if any is invalid, 66 if any cannot be read.")

    @Argument(help: "Preset files (or bundled preset names) to check.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one preset file") }
    }

    func run() throws {
        let out = TerminalOutput.standardOutput
        let err = TerminalOutput.standardError
        var status: Int32 = 0
        for file in files {
            do {
                let preset = try PresetLibrary.load(file)
                _ = try Configuration(preset: preset, duration: 1)
                out.write("ok: \(Quote.text(file, limit: 2 * Quote.defaultLimit))\n")
            } catch {
                out.flush()
                err.write("clumsy: error: \(Quote.message(error.description))\n")
                err.flush()
                status = max(status, error.exitStatus == 66 ? 66 : 65)
            }
        }
        out.flush()
        if status != 0 { throw ExitCode(status) }
    }
}

struct Tones: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the tones for the keys and the bass.")

    func run() throws {
        let out = TerminalOutput.standardOutput
        out.write("keys tones (--tone, keys.tone):\n")
        for tone in ToneCatalog.keys { out.write("  \(pad(tone.name))\(tone.summary)\n") }
        out.write("bass tones (bass.tone):\n")
        for tone in ToneCatalog.bass { out.write("  \(pad(tone.name))\(tone.summary)\n") }
        out.flush()
    }

    private func pad(_ name: String) -> String { name + String(repeating: " ", count: max(2, 17 - name.count)) }
}
