// SPDX-FileCopyrightText: 2026 The Clumsy authors
// SPDX-License-Identifier: GPL-3.0-or-later

import CLo
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One OSC argument, as Clumsy sends or understands it.
public enum OSCValue: Sendable, Equatable {
    /// A 32-bit integer (`i`).
    case int(Int32)
    /// A 32-bit float (`f`).
    case float(Float)
    /// A string (`s`).
    case string(String)
    /// A number of another numeric type (`h` 64-bit integer, `d` double), as a Double.
    case number(Double, type: Character)
    /// Any other type (blob, MIDI, true/false, nil, …): kept only as its type tag.
    case other(Character)

    /// The value as a number, if it is numeric.
    public var number: Double? {
        switch self {
        case .int(let x): return Double(x)
        case .float(let x): return Double(x)
        case .number(let x, _): return x
        case .string, .other: return nil
        }
    }
}

/// A decoded OSC message.
public struct OSCMessage: Sendable, Equatable {
    /// Address pattern, e.g. `/clumsy/gravity`.
    public var path: String
    /// Arguments in order.
    public var arguments: [OSCValue]

    /// Creates a message.
    public init(path: String, arguments: [OSCValue]) {
        self.path = path
        self.arguments = arguments
    }

    /// Decodes one UDP packet with liblo. A bundle or anything that is not a well-formed OSC
    /// message is an error with a short reason.
    public static func decode(_ packet: UnsafeRawBufferPointer) -> Result<OSCMessage, StudioError> {
        guard packet.count >= 4, let base = packet.baseAddress else { return .failure(.usage("a packet of \(packet.count) bytes is no OSC message")) }
        if packet.count >= 8, memcmp(base, "#bundle", 7) == 0 {
            return .failure(.usage("OSC bundles are not accepted; send plain messages"))
        }
        let data = UnsafeMutableRawPointer(mutating: base)
        guard let pathPointer = lo_get_path(data, packet.count) else { return .failure(.usage("a packet without a valid OSC address")) }
        var result: Int32 = 0
        guard let message = lo_message_deserialise(data, packet.count, &result) else {
            return .failure(.usage("a malformed OSC message (liblo error \(result))"))
        }
        defer { lo_message_free(message) }
        let path = String(cString: pathPointer)
        let count = Int(lo_message_get_argc(message))
        var arguments: [OSCValue] = []
        if count > 0, let types = lo_message_get_types(message), let argv = lo_message_get_argv(message) {
            for index in 0..<count {
                let type = types[index]
                let tag = Character(Unicode.Scalar(UInt8(bitPattern: type)))
                switch tag {
                case "i": arguments.append(.int(Int32(clumsy_lo_number(argv, Int32(index), type))))
                case "f": arguments.append(.float(Float(clumsy_lo_number(argv, Int32(index), type))))
                case "h", "d": arguments.append(.number(clumsy_lo_number(argv, Int32(index), type), type: tag))
                case "s", "S": arguments.append(.string(String(cString: clumsy_lo_string(argv, Int32(index)))))
                default: arguments.append(.other(tag))
                }
            }
        }
        return .success(OSCMessage(path: path, arguments: arguments))
    }

    /// Encodes the message as an OSC packet (for tests and for the sender).
    public func encoded() -> [UInt8] {
        guard let message = makeLoMessage() else { return [] }
        defer { lo_message_free(message) }
        var size = 0
        guard let bytes = lo_message_serialise(message, path, nil, &size) else { return [] }
        defer { free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }

    fileprivate func makeLoMessage() -> lo_message? {
        guard let message = lo_message_new() else { return nil }
        for argument in arguments {
            switch argument {
            case .int(let x): lo_message_add_int32(message, x)
            case .float(let x): lo_message_add_float(message, x)
            case .string(let s): lo_message_add_string(message, s)
            case .number(let x, let type):
                if type == "h" { lo_message_add_int64(message, Int64(x)) } else { lo_message_add_double(message, x) }
            case .other: lo_message_add_nil(message)
            }
        }
        return message
    }
}

/// Splits `host:port` (or `[v6]:port`); the port must be 1…65535.
public func parseHostPort(_ text: String, flag: String, defaultHost: String?, allowsAnyPort: Bool = false) throws(StudioError) -> (host: String, port: Int) {
    var host: String
    var portText: Substring
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
        host = String(text[text.index(after: text.startIndex)..<close])
        let rest = text[text.index(after: close)...]
        guard rest.hasPrefix(":") else { throw .usage("\(flag) \(text): expected [address]:port") }
        portText = rest.dropFirst()
    } else if let colon = text.lastIndex(of: ":") {
        host = String(text[..<colon])
        portText = text[text.index(after: colon)...]
    } else if let defaultHost {
        host = defaultHost
        portText = Substring(text)
    } else {
        throw .usage("\(flag) \(text): expected host:port, e.g. 127.0.0.1:9000")
    }
    guard let port = Int(portText), ((allowsAnyPort ? 0 : 1)...65535).contains(port) else {
        throw .usage("\(flag) \(text): the port must be a number 1…65535")
    }
    if host.isEmpty {
        guard let defaultHost else { throw .usage("\(flag) \(text): expected host:port, e.g. 127.0.0.1:9000") }
        host = defaultHost
    }
    return (host, port)
}

/// Sends OSC messages over UDP to one `host:port` (liblo).
public final class OSCSender {
    private let address: lo_address
    /// `host:port` as given.
    public let target: String

    /// Resolves `target` (`host:port`).
    public init(target: String) throws(StudioError) {
        let (host, port) = try parseHostPort(target, flag: "--osc-out", defaultHost: nil)
        guard let address = lo_address_new(host, String(port)) else {
            throw .usage("--osc-out \(target): cannot resolve \(host)")
        }
        self.address = address
        self.target = target
    }

    deinit { lo_address_free(address) }

    /// Sends one message; returns false when the send failed (the peer's port may be closed:
    /// UDP does not care, so failures are rare).
    @discardableResult
    public func send(_ message: OSCMessage) -> Bool {
        guard let lo = message.makeLoMessage() else { return false }
        defer { lo_message_free(lo) }
        return lo_send_message(address, message.path, lo) >= 0
    }
}

/// Listens for OSC messages on a UDP socket bound to one address (127.0.0.1 unless told
/// otherwise) and hands each decoded message, or each decoding error, to `handler` on its
/// own thread.
public final class OSCReceiver: @unchecked Sendable {
    private let socket: Int32
    private var thread: pthread_t?
    private let handler: @Sendable (Result<OSCMessage, StudioError>) -> Void
    private let stopping = Atomic<Bool>(false)
    /// The address and port listened on.
    public let address: String
    /// The UDP port listened on (the one the system chose when 0 was allowed and asked for).
    public let port: Int

    /// Binds `[addr:]port` (IPv4; default 127.0.0.1) and starts the listening thread. Port 0
    /// (any free port, which nobody sending would be told) only when `allowsAnyPort` (tests).
    public init(listen: String, allowsAnyPort: Bool = false,
                handler: @escaping @Sendable (Result<OSCMessage, StudioError>) -> Void) throws(StudioError) {
        let (host, requested) = try Self.parse(listen, allowsAnyPort: allowsAnyPort)
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(requested).bigEndian)
        guard inet_pton(AF_INET, host, &socketAddress.sin_addr) == 1 else {
            throw .usage("--osc-in \(listen): \(host) is not an IPv4 address (e.g. 127.0.0.1 or 0.0.0.0)")
        }
        let fd = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .unavailable("--osc-in: cannot open a UDP socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw .unavailable("--osc-in \(listen): cannot listen on UDP \(host):\(requested): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        address = host
        port = Int(UInt16(bigEndian: actual.sin_port))
        self.handler = handler
        let context = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        guard pthread_create(&handle, nil, { context in
            let receiver = Unmanaged<OSCReceiver>.fromOpaque(context!).takeRetainedValue()
            receiver.loop()
            return nil
        }, context) == 0 else {
            Unmanaged<OSCReceiver>.fromOpaque(context).release()
            Glibc.close(fd)
            throw .unavailable("--osc-in: cannot start the listening thread")
        }
        thread = handle
    }

    /// `[addr:]port` with the address defaulting to 127.0.0.1; the port 1…65535 (0, any free
    /// port, only when `allowsAnyPort`: `--osc-in` would never say which it got).
    public static func parse(_ text: String, allowsAnyPort: Bool = false) throws(StudioError) -> (String, Int) {
        if let port = Int(text) {
            guard ((allowsAnyPort ? 0 : 1)...65535).contains(port) else { throw .usage("--osc-in \(text): the port must be a number 1…65535") }
            return ("127.0.0.1", port)
        }
        let (host, port) = try parseHostPort(text, flag: "--osc-in", defaultHost: "127.0.0.1", allowsAnyPort: allowsAnyPort)
        return (host, port)
    }

    deinit { stop() }

    /// Stops the thread and closes the socket (idempotent).
    public func stop() {
        guard let thread else { return }
        stopping.store(true, ordering: .releasing)
        pthread_join(thread, nil)
        self.thread = nil
        Glibc.close(socket)
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        while !stopping.load(ordering: .acquiring) {
            let ready = poll(&descriptor, 1, 50)
            if ready <= 0 { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let result = buffer.withUnsafeBytes { OSCMessage.decode(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            handler(result)
        }
    }
}
