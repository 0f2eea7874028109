// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Errors
import Text
import Vocabulary

extension Preset {
    /// The rules that tie fields together (each field's own range is checked as it is read).
    func checkRules(_ r: FieldReader) throws(SessionError) {
        for (index, beat) in percussion.stomp.enumerated() where beat > meter.beats {
            throw r.fail("percussion.stomp[\(index)]", "beat \(beat) is not in a bar of \(meter); expected 1…\(meter.beats)")
        }
        for (path, curve, unit) in [("bass.velocity", bass.velocity, "× speed"), ("keys.velocity", keys.velocity, "m/s")] {
            guard curve.loud > curve.quiet else {
                throw r.fail("\(path).loud", "must be greater than quiet (\(Format.plain(curve.quiet)) \(unit))")
            }
        }
    }
}
