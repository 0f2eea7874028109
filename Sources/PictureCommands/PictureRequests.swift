// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Controls
import Engine
import Errors
import EventLog
import FileOutput
import Pictures
import Sinks
import Text
import WorldDrawing

/// What `clumsy draw` was asked to draw.
public struct DrawRequest: Sendable {
    /// A bundled preset name or a preset file path.
    public var preset: String
    /// Values overriding the preset's (seed, gravity, speed).
    public var overrides: Overrides
    /// Output file (.png, .svg or .pdf).
    public var outputPath: String
    /// Seconds of ball paths and hits to draw, or nil for the world at its start only.
    public var trace: Double?
    /// Canvas size.
    public var size: PictureSize

    /// Creates a request.
    public init(preset: String, overrides: Overrides, outputPath: String, trace: Double?, size: PictureSize) {
        self.preset = preset
        self.overrides = overrides
        self.outputPath = outputPath
        self.trace = trace
        self.size = size
    }

    /// Accepted `--trace` seconds.
    public static let traceLimits: ClosedRange<Double> = 0.01...600
}

/// Still pictures: `clumsy draw` and `clumsy roll`.
public enum PictureRunner {
    /// The picture format of an output path, or a usage error naming `flag` and what is accepted.
    public static func format(of path: String, flag: String = "-o", accepted: [PictureFormat] = PictureFormat.allCases) throws(SessionError) -> PictureFormat {
        guard let format = PictureFormat(path: path), accepted.contains(format) else {
            throw .usage("\(flag) \(path): the file name must end in \(accepted.map { "." + $0.rawValue }.joined(separator: ", "))")
        }
        return format
    }

    /// Draws the world of a preset (with `trace`, its first seconds) and writes the file.
    public static func draw(_ request: DrawRequest, stop: StopSignal? = nil) throws(SessionError) {
        let format = try format(of: request.outputPath)
        if let trace = request.trace, !(trace.isFinite && DrawRequest.traceLimits.contains(trace)) {
            throw .usage("--trace \(trace) is out of range; accepted: \(Limits.text(DrawRequest.traceLimits, unit: "s"))")
        }
        let plan = try SessionPlan.resolve(preset: request.preset, overrides: request.overrides, duration: request.trace ?? 1)
        let file = try open(request.outputPath, inputs: [("the preset", plan.source)])
        do throws(SessionError) {
            let drawing = PlanDrawing.drawing(for: plan)
            // Progress on stderr (when it is a terminal) for traces long enough to wait for.
            let standardError = TerminalOutput.standardError
            let showsProgress = standardError.isTerminal && (request.trace ?? 0) * Double(plan.world.pianoStarts.count + 1) >= 200
            let trace = try request.trace.map { (seconds) throws(SessionError) -> Trace in
                try DrawingBuilder.trace(plan, seconds: seconds, stop: stop, progress: showsProgress ? { fraction in
                    standardError.write("\r  tracing \(Format.fixed(fraction * seconds, decimals: 1)) / \(Format.fixed(seconds, decimals: 1)) s  [\(Int(fraction * 100 + 1e-6))%]")
                    standardError.flush()
                } : nil)
            }
            if showsProgress {
                standardError.write("\r\u{1B}[K")
                standardError.flush()
            }
            let bytes: [UInt8]
            do {
                bytes = try WorldPicture.render(drawing, trace: trace, width: request.size.width, height: request.size.height, format: format)
            } catch {
                throw SessionError.software("cannot draw \(request.outputPath): \(error)")
            }
            try write(bytes, to: file)
        } catch {
            file.abandon()
            throw error
        }
    }

    /// Checks the output against `inputs` (`OutputCheck`), then creates its temporary file now,
    /// so a bad path fails before any work.
    static func open(_ path: String, inputs: [OutputCheck.Named]) throws(SessionError) -> AtomicFile {
        try OutputCheck.verify(outputs: [("-o", path)], inputs: inputs)
        do {
            return try AtomicFile(path: path)
        } catch {
            throw .cannotCreate("cannot write \(path): \(error)")
        }
    }

    static func write(_ bytes: [UInt8], to file: AtomicFile) throws(SessionError) {
        do {
            try file.write(bytes)
            try file.commit()
        } catch {
            file.abandon()
            throw .io("cannot write \(file.path): \(error)")
        }
    }
}
