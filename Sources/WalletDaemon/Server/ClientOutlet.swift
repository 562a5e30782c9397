import Foundation

/// Where the daemon's lines to one client go: its socket (``ClientConnection``), or a page's
/// event stream over HTTP (``PageOutlet``). Answers, notifications and the daemon's own
/// requests (a forwarded `ui.prompt`) all go out through it, one JSON-RPC message each.
public protocol ClientOutlet: AnyObject, Sendable {
    /// Queues one JSON-RPC message for the client, never blocking.
    /// - Parameter droppable: true for messages a slow client may miss (event notifications).
    /// - Returns: false when the message was dropped or the client is gone.
    @discardableResult
    func send(_ line: Data, droppable: Bool) -> Bool
}

extension ClientConnection: ClientOutlet {}
