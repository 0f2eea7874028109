// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Errors
import Presets
import Studio
import TestSupport
import Testing
import Theory
@testable import Engine
@testable import EventLog
@testable import Live

/// The controls table is the one list of controls: every source reads each row alike.
@Suite struct ControlTableTests {
    /// A control of `row` with the arguments each source writes it with: OSC's, a scene's JSON.
    private func sample(_ row: ControlRow) -> (control: Control, osc: [OSCValue], scene: String) {
        switch row.shape {
        case .none(let control):
            return (control, [], "true")
        case .number(let quantity, let make):
            let range = quantity.range
            let value = ((range.lowerBound + range.upperBound) / 2).rounded()
            return (make(value), [.float(Float(value))], "\(value)")
        case .whole(let range, _, let make):
            return (make(range.upperBound), [.int(Int32(range.upperBound))], "\(range.upperBound)")
        case .key:
            return (.key(Key(parsing: "D dorian")!), [.string("D"), .string("dorian")], "{\"tonic\": \"D\", \"scale\": \"dorian\"}")
        case .level:
            return (.level(voice: "keys", value: 90), [.string("keys"), .int(90)], "{\"keys\": 90}")
        }
    }

    @Test("each row's control reads back alike from OSC, the event log and a scene, under the row's name")
    func everySourceReadsEveryRow() throws {
        #expect(Set(Control.table.map(\.name)).count == Control.table.count)
        let voices = SessionPlan(configuration: try Configuration(preset: try bundled("original"), duration: 10)).voices
        for row in Control.table {
            let (control, osc, scene) = sample(row)
            #expect(control.name == row.name && control.row.name == row.name)
            // OSC in.
            let heard = OSCControlSource.interpret(OSCMessage(path: "/clumsy/" + row.name, arguments: osc))
            #expect(try heard.get() == control, "\(row.name) over OSC")
            // The event log, written and read back for replay.
            let line = try #require(EventLogRecord(.live(time: 1, step: 240, control: control), voices: voices)?.line)
            let record = try EventLogRecord(parsing: Array(line.utf8), path: "log", line: 2)
            let replayed = try ReplayLog.control(record) { SessionError.preset(file: "log", field: "line 2", message: $0) }
            #expect(replayed == TimedControl(step: 240, control: control), "\(row.name) through the log: \(line)")
            // A preset's scene, for the rows scenes may set.
            let text = "{\"scenes\": [{\"bar\": 2, \"\(row.name)\": \(scene)}]}"
            let decoded = Result { () throws(SessionError) in try Preset.decode(Array(text.utf8), file: "p.json", defaultName: "p") }
            if row.inScenes {
                #expect(try decoded.get().scenes.first?.controls == [control], "\(row.name) in a scene")
            } else if case .success = decoded {
                Issue.record("\(row.name) is not a scene field, yet a scene set it")
            }
        }
    }

    @Test("a row refuses an argument of another shape, naming the control")
    func aWrongShapeIsRefused() {
        let arguments: [ControlArgument] = [.none, .number(1), .key(tonic: "D", mode: "dorian"), .level(voice: "keys", value: 90)]
        for row in Control.table {
            let accepted = arguments.filter { if case .success = row.make($0) { true } else { false } }
            #expect(accepted.count <= 1, "\(row.name) accepts \(accepted)")
            for argument in arguments where !accepted.contains(argument) {
                if case .failure(let rejection) = row.make(argument) { #expect(rejection.description.contains(row.name), "\(rejection)") }
            }
        }
    }

    @Test("a scene's controls take effect in the table's order, whatever the file's, levels as written")
    func sceneControlsFollowTheTableOrder() throws {
        let text = """
        {"scenes": [{"bar": 3, "balls": 1, "level": {"keys": 20, "bass": 30}, "tempo": 100, "drop": true, "gravity": 2}]}
        """
        let scene = try #require(try Preset.decode(Array(text.utf8), file: "p.json", defaultName: "p").scenes.first)
        #expect(scene.controls == [.gravity(2), .drop, .tempo(100), .level(voice: "keys", value: 20), .level(voice: "bass", value: 30), .balls(1)])
    }
}
