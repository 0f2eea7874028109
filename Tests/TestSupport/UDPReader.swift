// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Studio
#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket on a free loopback port, read without blocking: what `--osc-out` sent, for
/// tests that run an `OSCOutSink` in their own process. Closed when the last reference goes.
public final class UDPReader {
    private let socket: Int32
    /// The port it listens on (127.0.0.1).
    public let port: UInt16

    /// - Throws: `POSIXError(.EADDRNOTAVAIL)` when no socket could be bound.
    public init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0   // any free port
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard socket >= 0, bound else {
            if socket >= 0 { Glibc.close(socket) }
            throw POSIXError(.EADDRNOTAVAIL)
        }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        port = UInt16(bigEndian: address.sin_port)
    }

    /// `127.0.0.1:<port>`, as `--osc-out` takes it.
    public var target: String { "127.0.0.1:\(port)" }

    /// Every datagram waiting, decoded as OSC (loopback delivers while sending, so reading
    /// after each send keeps a burst within the socket's buffer); one that does not decode is
    /// left out.
    public func messages() -> [OSCMessage] {
        var buffer = [UInt8](repeating: 0, count: 2048)
        var messages: [OSCMessage] = []
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { return messages }
            if case .success(let message) = buffer[..<count].withUnsafeBytes({ OSCMessage.decode($0) }) { messages.append(message) }
        }
    }

    deinit { Glibc.close(socket) }
}
