// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Testing
@testable import Batch

/// `--vary`: what it reads and what each item draws, in process.
@Suite("Variations")
struct VariationTests {
    @Test("A range, a list and * are read; a flag's name resolves to its field")
    func parsing() throws {
        let gravity = try Variation(parsing: "gravity=2..12")
        #expect(gravity.path == "gravity" && gravity.values == .numbers(2...12))
        let tonic = try Variation(parsing: "key=*")
        #expect(tonic.path == "key.tonic" && tonic.values == .choices(Variation.tonics))
        let list = try Variation(parsing: "gravity=3,9.81")
        #expect(list.values == .choices(["3", "9.81"]))
    }

    @Test("A bad --vary is a usage error (64) that names the flag",
          arguments: ["gravity", "=1..2", "nosuchfield=1..2", "gravity=12..2", "gravity=0x10..20", "gravity=inf..20",
                      "gravity=nan..1", "gravity=1,,2", "gravity=*", "gravity=-5..1e9"])
    func refused(text: String) {
        #expect {
            try Variation(parsing: text)
        } throws: { error in
            guard let error = error as? SessionError else { return false }
            return error.exitStatus == 64 && error.description.contains("--vary")
        }
    }

    @Test("An item draws the same value whoever else draws, kept to the range and to 3 decimals")
    func draws() throws {
        let gravity = try Variation(parsing: "gravity=2..12")
        let names = (1...300).map { "default-seed\($0)" }
        let values = names.map { gravity.draw(for: $0) }
        #expect(names.reversed().map { gravity.draw(for: $0) } == values.reversed())
        for value in values {
            let number = try #require(Double(value), "\(value)")
            #expect((2...12).contains(number), "\(value)")
            #expect(abs(number * 1000 - (number * 1000).rounded()) < 1e-6, "\(value) has more than 3 decimals")
        }
        // Not one value for all: 300 draws from 2…12 take many values and fill the range.
        let numbers = values.compactMap(Double.init)
        #expect(Set(values).count > 250, "\(Set(values).count) distinct values")
        #expect(numbers.min()! < 3 && numbers.max()! > 11, "\(numbers.min()!)…\(numbers.max()!)")
        // The flag's name and the field's path are one field, one stream.
        let byFlag = try Variation(parsing: "key=*"), byPath = try Variation(parsing: "key.tonic=*")
        #expect(names.map { byFlag.draw(for: $0) } == names.map { byPath.draw(for: $0) })
        let tonic = try Variation(parsing: "key=*")
        #expect(Set(names.map { tonic.draw(for: $0) }) == Set(Variation.tonics))
    }
}
