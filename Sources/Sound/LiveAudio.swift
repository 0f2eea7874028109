// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CFluidSynth
import FileOutput
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plays a sampler live through one of FluidSynth's audio drivers. The driver's own
/// thread pulls audio from the synth, paced by the device; messages sent to the
/// sampler sound from the driver's next 64-frame block.
///
/// The `file` driver needs no sound hardware: it writes `fileName` (16-bit, format from
/// the extension, WAV if unknown) paced to the wall clock, in 64-frame periods (FluidSynth's
/// timer rounds to whole milliseconds, so periods of 128…512 frames would run about 3 % slow).
///
/// Owns FluidSynth's audio driver handle and keeps the sampler alive, so the driver is
/// deleted before the synth.
public final class LiveAudio: @unchecked Sendable {
    /// The sampler being played.
    public let sampler: Sampler
    /// The driver in use, e.g. "pulseaudio", "alsa", "file".
    public let driver: String
    /// `fluid_audio_driver_t *`, owned; nil once stopped.
    private var handle: OpaquePointer?
    private let lock = ConditionLock()

    /// Starts the audio driver on `sampler`.
    /// - Parameters:
    ///   - sampler: the sampler to play; it must not already feed another output.
    ///   - driver: a name from `availableDrivers` ("pulseaudio", "alsa", "jack", "file",
    ///     …), or nil for FluidSynth's default (`audio.driver`, "alsa" on Debian 12).
    ///   - fileName: for the "file" driver, the file to write (required there); ignored otherwise.
    ///   - format: the file's format, when `fileName` (a temporary) does not say it by its extension.
    /// - Throws: `SoundError.unknownAudioDriver` for a name this FluidSynth lacks,
    ///   `.invalidConfiguration` for the file driver without `fileName`, `.outputInUse`
    ///   if the sampler already has an output, and `.audioDriverFailed` naming the driver
    ///   when it cannot start (no device or server). Messages that ALSA or a sound server
    ///   library print to stderr while the driver starts are part of that error instead.
    public init(sampler: Sampler, driver: String?, fileName: String? = nil, format: AudioFileFormat? = nil,
                jackAutoconnect: Bool = true) throws(SoundError) {
        FluidLog.install()
        let settings = sampler.settings
        let available = Self.availableDrivers
        let name: String
        if let driver {
            guard available.contains(driver) else {
                throw .unknownAudioDriver(name: driver, available: available)
            }
            name = driver
        } else {
            var current: UnsafeMutablePointer<CChar>?
            if fluid_settings_dupstr(settings, "audio.driver", &current) == FLUID_OK, let current {
                name = String(cString: current)
                fluid_free(current)
            } else {
                name = "default"
            }
        }
        if name == "file", fileName?.isEmpty ?? true {
            throw .invalidConfiguration(
                field: "fileName", value: "nil", accepted: "the path of the file the \"file\" audio driver writes")
        }
        try sampler.attachOutput("the live audio driver \"\(name)\"")
        if name == "file", let fileName {
            _ = PathBytes.withCString(fileName) { fluid_settings_setstr(settings, "audio.file.name", $0) }
            fluid_settings_setstr(settings, "audio.file.type", (format ?? AudioFileFormat(path: fileName))?.fluidFileType ?? "wav")
            fluid_settings_setstr(settings, "audio.file.format", "s16")
        }
        if name == "jack" {
            // One JACK client named for the program (ports clumsy:left and clumsy:right), wired
            // to the system's playback ports unless the caller connects them itself.
            fluid_settings_setstr(settings, "audio.jack.id", Self.jackClientName)
            fluid_settings_setint(settings, "audio.jack.autoconnect", jackAutoconnect ? 1 : 0)
        }
        fluid_settings_setstr(settings, "audio.driver", name)
        fluid_settings_setint(settings, "audio.period-size", Int32(Sampler.blockSize))

        let synth = sampler.synth
        let ((created, printed), messages) = FluidLog.capturing {
            StandardError.capturing(enabled: name != "file") { new_fluid_audio_driver(settings, synth) }
        }
        guard let created else {
            sampler.detachOutput()
            let description = driver == nil ? "\(name) (FluidSynth's default)" : name
            throw .audioDriverFailed(driver: description, messages: messages + printed.suffix(3), available: available)
        }
        FluidLog.keep(messages)
        self.sampler = sampler
        self.driver = name
        self.handle = created
    }

    deinit {
        stop()
    }

    /// The JACK client name of the `jack` driver: its ports are `clumsy:left` and `clumsy:right`
    /// (JACK appends `-01` when another client has the name).
    public static let jackClientName = "clumsy"

    /// Stops the driver (for the file driver: closes its file) and frees the sampler for
    /// another output. Idempotent.
    public func stop() {
        lock.withLock {
            guard let handle else { return }
            delete_fluid_audio_driver(handle)
            self.handle = nil
            sampler.detachOutput()
        }
    }

    /// The audio drivers this FluidSynth build supports, e.g.
    /// ["alsa", "file", "jack", "oss", "pulseaudio", "sdl2"] on Debian 12.
    public static var availableDrivers: [String] {
        FluidLog.install()
        guard let settings = new_fluid_settings() else { return [] }
        defer { delete_fluid_settings(settings) }
        final class Names { var values: [String] = [] }
        let names = Names()
        let collect: fluid_settings_foreach_option_t = { data, _, option in
            guard let data, let option else { return }
            Unmanaged<Names>.fromOpaque(data).takeUnretainedValue().values.append(String(cString: option))
        }
        withExtendedLifetime(names) {
            fluid_settings_foreach_option(settings, "audio.driver", Unmanaged.passUnretained(names).toOpaque(), collect)
        }
        return names.values
    }
}

/// Diverts file descriptor 2 into a temporary file while a C library that prints its
/// own diagnostics (ALSA, PulseAudio, JACK) is called, and returns those lines.
/// Other threads' stderr output during the call is diverted too; the window is the
/// few milliseconds a driver takes to start.
enum StandardError {
    static func capturing<T>(enabled: Bool, _ body: () -> T) -> (T, [String]) {
        guard enabled else { return (body(), []) }
        fflush(nil)
        var template = Array("/tmp/clumsy-stderr-XXXXXX".utf8CString)
        let temporary = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard temporary >= 0 else { return (body(), []) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let saved = dup(2)
        guard saved >= 0 else {
            close(temporary)
            return (body(), [])
        }
        dup2(temporary, 2)
        let value = body()
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        var text: [UInt8] = []
        lseek(temporary, 0, SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while text.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { read(temporary, $0.baseAddress, 4096) }
            if count <= 0 { break }
            text += buffer[0..<count]
        }
        close(temporary)
        let lines = String(decoding: text, as: UTF8.self)
            .split(separator: "\n").map { String($0) }.filter { !$0.isEmpty }
        return (value, lines)
    }
}
