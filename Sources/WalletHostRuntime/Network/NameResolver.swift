import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Names resolved for the egress proxy off the host loop: getaddrinfo blocks (DNS), so it runs
/// on a few workers named `wh-resolve` (at most ``maximumWorkers`` at once, so that one slow name
/// stalls no other; started when a lookup is queued, ended when none is left), and each answer
/// is handed to the caller's completion there (the proxy posts it back to its loop).
enum NameResolver {
    /// Lookups resolved at once, at most.
    static let maximumWorkers = 4

    private struct Lookup {
        let host: String
        let port: Int
        let done: @Sendable ([ResolvedAddress], String?) -> Void
    }

    private struct Queue {
        var lookups: [Lookup] = []
        var workers = 0
    }

    private static let queue = Mutex(Queue())

    /// Resolves `host` (a name) for `port`; `done` is called once, on a worker, with up to 8
    /// addresses, or none and the reason.
    static func resolve(host: String, port: Int, _ done: @escaping @Sendable ([ResolvedAddress], String?) -> Void) {
        let startsWorker = queue.withLock { queue -> Bool in
            queue.lookups.append(Lookup(host: host, port: port, done: done))
            guard queue.workers < maximumWorkers else { return false }
            queue.workers += 1
            return true
        }
        guard startsWorker else { return }
        let failure = DetachedThread.start(name: "wh-resolve", stackBytes: 256 << 10) { work() }
        guard failure != 0 else { return }
        // No thread (at the limit of threads): the lookups no other worker will take fail.
        let orphaned = queue.withLock { queue -> [Lookup] in
            queue.workers -= 1
            guard queue.workers == 0 else { return [] }
            defer { queue.lookups.removeAll() }
            return queue.lookups
        }
        for lookup in orphaned { lookup.done([], "cannot start a thread to resolve \(lookup.host)") }
    }

    /// A worker: resolves queued lookups until none is left.
    private static func work() {
        while let lookup = queue.withLock({ queue -> Lookup? in
            if queue.lookups.isEmpty {
                queue.workers -= 1
                return nil
            }
            return queue.lookups.removeFirst()
        }) {
            let (addresses, error) = addresses(of: lookup.host, port: lookup.port)
            lookup.done(addresses, error)
        }
    }

    /// getaddrinfo: up to 8 stream addresses, or none and the reason.
    static func addresses(of host: String, port: Int) -> ([ResolvedAddress], String?) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return ([], "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor, addresses.count < 8 {
            if let address = resolvedAddress(entry.pointee.ai_addr, length: entry.pointee.ai_addrlen) { addresses.append(address) }
            cursor = entry.pointee.ai_next
        }
        return (addresses, addresses.isEmpty ? "no address for \(host)" : nil)
    }

    /// `host` as a numeric IPv4 or IPv6 address for `port` (nothing to resolve); nil for a name.
    static func literal(_ host: String, port: Int) -> ResolvedAddress? {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = v4
            return resolvedAddress(of: address)
        }
        if inet_pton(AF_INET6, host, &v6) == 1 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = v6
            return resolvedAddress(of: address)
        }
        return nil
    }

    /// A `sockaddr_in` or `sockaddr_in6` as a resolved address, through a `sockaddr_storage`.
    private static func resolvedAddress<Address>(of address: Address) -> ResolvedAddress? {
        var storage = sockaddr_storage()
        withUnsafeBytes(of: address) { source in
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
        }
        return withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { resolvedAddress($0, length: socklen_t(MemoryLayout<Address>.size)) }
        }
    }

    static func resolvedAddress(_ pointer: UnsafePointer<sockaddr>?, length: socklen_t) -> ResolvedAddress? {
        guard let pointer, Int(length) <= MemoryLayout<sockaddr_storage>.size else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: Int(length))) }
        var text = [CChar](repeating: 0, count: 64)
        let family = Int32(pointer.pointee.sa_family)
        if family == AF_INET {
            var address = UnsafeRawPointer(pointer).load(as: sockaddr_in.self).sin_addr
            _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
        } else if family == AF_INET6 {
            var address = UnsafeRawPointer(pointer).load(as: sockaddr_in6.self).sin6_addr
            _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
        } else {
            return nil
        }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ResolvedAddress(storage: storage, length: length, text: address, hostLocal: NetworkPolicy.isNonPublic(address))
    }

    /// The addresses of the host's own interfaces (getifaddrs), as text: a destination there is
    /// the host itself, whatever range it is in.
    static func hostAddresses() -> Set<String> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses = Set<String>()
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            if let address = entry.pointee.ifa_addr {
                let family = Int32(address.pointee.sa_family)
                let length = family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size
                if family == AF_INET || family == AF_INET6, let resolved = resolvedAddress(address, length: socklen_t(length)) {
                    addresses.insert(resolved.text)
                }
            }
            cursor = entry.pointee.ifa_next
        }
        return addresses
    }
}
