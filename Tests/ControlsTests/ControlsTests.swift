// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Testing
import Theory

/// The controls table read alone: what each row accepts and refuses, and how it says so. That
/// every source (OSC, a scene, the event log) reads each row alike is LiveTests' ControlTableTests.
@Suite struct ControlsTests {
    /// The rows of one shape's number, with their quantity.
    private var quantities: [(ControlRow, Limits.Quantity)] {
        Control.table.compactMap { row in
            if case .number(let quantity, _) = row.shape { return (row, quantity) }
            return nil
        }
    }

    @Test("a number control takes its quantity's range to both ends and refuses past them, NaN and infinities, naming the range and unit")
    func numberRows() throws {
        #expect(quantities.map(\.0.name) == ["gravity", "speed", "tempo"])
        for (row, quantity) in quantities {
            for value in [quantity.range.lowerBound, quantity.range.upperBound] {
                let control = try Control.make(name: row.name, value: value).get()
                #expect(control.value == value && control.name == row.name)
            }
            let shown = Limits.text(quantity.range, unit: quantity.unit)
            for value in [quantity.range.lowerBound - 0.001, quantity.range.upperBound + 1, .nan, .infinity, -.infinity] {
                guard case .failure(let rejection) = Control.make(name: row.name, value: value) else {
                    Issue.record("\(row.name) \(value) was accepted")
                    continue
                }
                #expect(rejection.description.contains(row.name) && rejection.description.contains(shown), "\(rejection)")
            }
            guard case .failure(let missing) = Control.make(name: row.name, value: nil) else {
                Issue.record("\(row.name) without a value was accepted")
                continue
            }
            #expect(missing.description == "\(row.name) needs one number in \(shown)")
        }
        #expect(Limits.text(Limits.gravity.range, unit: Limits.gravity.unit) == "0…100 m/s²")
    }

    @Test("a whole-number control refuses a fraction and a value past its range; a control without a value refuses one")
    func wholeAndNone() throws {
        #expect(try Control.make(name: "balls", value: 3).get() == .balls(3))
        #expect(try Control.make(name: "chord", value: 7).get() == .chord(7))
        #expect(try Control.make(name: "place", value: 0).get() == .place(0))
        for (name, value) in [("balls", 2.5), ("chord", 0), ("chord", 8), ("place", 1001), ("balls", -1), ("balls", .nan)] {
            guard case .failure(let rejection) = Control.make(name: name, value: value) else {
                Issue.record("\(name) \(value) was accepted")
                continue
            }
            #expect(rejection.description.hasPrefix(name + " ") && rejection.description.contains("expected"), "\(rejection)")
        }
        #expect(try Control.make(name: "kick", value: nil).get() == .kick)
        guard case .failure(let rejection) = Control.make(name: "kick", value: 1) else {
            Issue.record("kick 1 was accepted")
            return
        }
        #expect(rejection.description == "kick takes no value")
    }

    @Test("a key is read as a preset spells it; a wrong tonic or mode is refused with what is accepted and the nearest mode")
    func keys() throws {
        let control = try Control.key(tonic: "Eb", mode: "dorian").get()
        #expect(control == .key(Key(spelledTonic: SpelledPitchClass(name: "Eb")!, scale: Scale.named("dorian")!)))
        #expect(control.text.hasPrefix("key E♭"))
        guard case .failure(let tonic) = Control.key(tonic: "H", mode: "major") else {
            Issue.record("the tonic H was accepted")
            return
        }
        #expect(tonic.description.contains(KeyNames.acceptedTonics))
        guard case .failure(let mode) = Control.key(tonic: "C", mode: "dorain") else {
            Issue.record("the mode dorain was accepted")
            return
        }
        #expect(mode.description.contains("dorian") && mode.description.contains(KeyNames.acceptedModes), "\(mode)")
        guard case .failure(let number) = Control.table.first(where: { $0.name == "key" })!.make(.number(3)) else {
            Issue.record("a key change from a number was accepted")
            return
        }
        #expect(number.description == "key needs a tonic and a mode, not a number")
    }

    @Test("a level names its voice and takes 0…127; an unknown name lists every control")
    func levelsAndNames() throws {
        #expect(try Control.level(voice: "keys", value: 127).get() == .level(voice: "keys", value: 127))
        for (voice, value) in [("", 90.0), ("keys", 128), ("keys", 0.5)] {
            if case .success = Control.level(voice: voice, value: value) { Issue.record("level \(voice) \(value) was accepted") }
        }
        let names = Control.table.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Control.unknown("gravty").description == "unknown control gravty; accepted: " + names.joined(separator: ", "))
        for row in Control.table { #expect(row.path == "/clumsy/" + row.name && row.message.hasPrefix(row.path)) }
    }

    /// One control of every case, in the table's order (a case added without a row, or a row
    /// named other than its case, fails here).
    private static let everyCase: [Control] = [
        .gravity(9.81), .speed(2), .kick, .drop, .tempo(120), .key(Key(parsing: "D dorian")!), .level(voice: "keys", value: 90),
        .balls(3), .chord(5), .lift, .place(500),
    ]

    @Test("every case is named by its row of the table, and the table has a row for each case, in order")
    func namesAreTheRows() throws {
        #expect(Self.everyCase.map(\.name) == Control.table.map(\.name))
        for control in Self.everyCase {
            let row = try #require(Control.row(named: control.name), "no row named \(control.name)")
            #expect(control.row.name == row.name)
            // Each reads back through its row from its name and number (a key and a level take
            // words too: their own makers, tested above).
            switch control {
            case .key, .level: continue
            default: #expect(try Control.make(name: control.name, value: control.value).get() == control)
            }
        }
        #expect(Control.gravity(3.5).text == "gravity 3.5" && Control.kick.text == "kick" && Control.level(voice: "bass", value: 60).text == "level bass 60")
    }
}

