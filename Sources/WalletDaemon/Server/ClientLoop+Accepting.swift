import CWalletPoll
import Foundation
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

// Accepting the daemon's clients on the host loop, and refusing those it does not serve.

extension ClientLoop {
    /// The listener is readable: takes the waiting clients, a bounded number per wake-up.
    func acceptClients() {
        guard !confined.value.stopped else { return }
        noteBusy()
        for _ in 0..<Self.acceptsPerTurn {
            let fd = wh_poll_accept(listener)
            if fd < 0 {
                switch errno {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop accepting for a moment rather than spin; the
                    // waiting clients stay in the backlog.
                    pauseAccepting()
                    return
                case ECONNABORTED, EPROTO:
                    continue
                default:
                    return
                }
            }
            guard let peer = UnixSocket.peerCredentials(fd), peer.uid == getuid() else {
                refusedPeerCount.add(1, ordering: .relaxed)
                refuse(fd, "this daemon serves only uid \(getuid())")
                continue
            }
            guard clientCount.load(ordering: .relaxed) < maximumClients else {
                refusedOverLimitCount.add(1, ordering: .relaxed)
                refuse(fd, "the daemon serves at most \(maximumClients) clients at once (serve --max-clients); "
                       + "try again when one has left")
                continue
            }
            let connection = ClientConnection(fd: fd, loop: loop, limits: limits) { [weak self] connection in
                self?.serve(connection)
            }
            do {
                try loop.register(fd, for: .readable) { [weak self] events in self?.ready(connection, events) }
            } catch {
                SystemCall.close(fd)
                continue
            }
            confined.value.connections[fd] = connection
            clientCount.add(1, ordering: .relaxed)
            handlers.connected(connection, peer.pid)
        }
    }

    /// Stops watching the listener for 50 ms.
    private func pauseAccepting() {
        loop.unregister(listener)
        confined.value.listenerPaused = true
        loop.schedule(after: .milliseconds(50)) { [weak self] in
            guard let self else { return }
            confined.value.listenerPaused = false
            guard confined.value.accepting, !confined.value.stopped else { return }
            try? loop.register(listener, for: .readable) { [weak self] _ in self?.acceptClients() }
        }
    }

    /// Tells the peer why in one error line, ends our side, and keeps the socket briefly to read
    /// what the peer sent.
    private func refuse(_ fd: Int32, _ reason: String) {
        let line = (try? WireCodec(dates: .iso8601).errorResponse(id: nil, error: RPCErrorObject(code: RPCErrorCode.invalidRequest,
                                                                                                    message: reason))) ?? Data()
        _ = line.withUnsafeBytes { try? SystemCall.send(fd, $0, flags: Int32(MSG_DONTWAIT)) }
        SystemCall.shutdown(fd, Int32(SHUT_WR))
        guard confined.value.refused.count < Self.maximumRefusedHeld,
              (try? loop.register(fd, for: .readable, { [weak self] _ in self?.drainRefused(fd) })) != nil else {
            SystemCall.close(fd)
            return
        }
        confined.value.refused[fd] = loop.schedule(after: Self.refusalGrace) { [weak self] in self?.closeRefused(fd) }
    }

    /// Reads what a refused peer sent; closes the socket once it ends or fails.
    private func drainRefused(_ fd: Int32) {
        guard confined.value.refused[fd] != nil else { return }
        let buffer = confined.value.buffer
        switch Result(catching: { try SystemCall.receive(fd, into: buffer, flags: Int32(MSG_DONTWAIT)) }) {
        case .success(.none): break  // would block
        case .success(.some(let count)) where count > 0: break  // dropped
        default: closeRefused(fd)  // the end of the stream, or a failure
        }
    }

    private func closeRefused(_ fd: Int32) {
        guard let timer = confined.value.refused.removeValue(forKey: fd) else { return }
        loop.cancel(timer)
        loop.unregister(fd)
        SystemCall.close(fd)
    }
}
