// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Engine
import Foundation
import Presets
import Studio
import Testing
@testable import Session
#if canImport(Glibc)
import Glibc
#endif

/// `--osc-out`'s `/clumsy/control`: what a listener reads for each kind of control.
@Suite("OSC out: controls")
struct OSCOutTests {
    @Test("/clumsy/control carries the control's number when it has one, and its name alone for kick, drop and lift")
    func controlArguments() throws {
        let socket = try UDPReader()
        defer { socket.close() }
        let plan = SessionPlan(configuration: try Configuration(preset: try PresetLibrary.load("default"), duration: 1))
        let sink = try OSCOutSink(target: "127.0.0.1:\(socket.port)", plan: plan)
        let controls: [Control] = [.gravity(3.5), .drop, .tempo(96), .kick, .lift, .balls(7)]
        try sink.record(controls.map { .live(time: 0.5, step: 120, control: $0) }, through: 0.5)
        let sent = socket.messages().filter { $0.path == "/clumsy/control" }.map(\.arguments)
        #expect(sent == [
            [.string("gravity"), .float(3.5)], [.string("drop")], [.string("tempo"), .float(96)],
            [.string("kick")], [.string("lift")], [.string("balls"), .float(7)],
        ])
    }
}

/// A UDP socket on a free loopback port, read without blocking.
private final class UDPReader {
    let socket: Int32
    let port: UInt16

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard socket >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Every datagram waiting, decoded (loopback delivers while sending).
    func messages() -> [OSCMessage] {
        var buffer = [UInt8](repeating: 0, count: 2048)
        var messages: [OSCMessage] = []
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return messages }
            if case .success(let message) = buffer[..<count].withUnsafeBytes({ OSCMessage.decode($0) }) { messages.append(message) }
        }
    }

    func close() { Glibc.close(socket) }
}
