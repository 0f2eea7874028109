// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import ArgumentParser
import PictureCommands
import Sinks

/// The checks `clumsy draw` and `clumsy roll` share: `--size` must parse as a picture size
/// and `-o` must name a picture format, else a usage error (exit 64). The size is checked first.
func validatePicture(size: String, output: String) throws {
    do {
        _ = try PictureSize(parsing: size)
        _ = try PictureRunner.format(of: output)
    } catch {
        throw ValidationError(error.description)
    }
}
