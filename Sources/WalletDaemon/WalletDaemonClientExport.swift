// The client API (DaemonClient, the method table, params and results) lives in
// WalletDaemonClient, which a client links without the server; a file that imports the daemon
// sees it as before.
@_exported import WalletDaemonClient
