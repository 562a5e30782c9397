import Foundation

/// The one sentence `wallet-host` prints for an error that ends a command.
enum ErrorMessage {
    /// Our own errors describe themselves in a sentence; a Foundation error's `description` is
    /// an `NSError` dump (domain, code, user info), so it gives its localized description instead.
    static func sentence(_ error: any Error) -> String {
        if error is CocoaError || type(of: error) is NSError.Type {
            return (error as NSError).localizedDescription
        }
        return "\(error)"
    }
}
