import Foundation

// Apple's SDKs declare UserDefaults thread-safe and Sendable; swift-corelibs-foundation marks
// the conformance unavailable, so restating it draws "conformance ... was already stated in the
// type's module 'Foundation'", a warning with no diagnostic group to silence. This module holds
// only this line and is compiled with -suppress-warnings (Package.swift), so that a user's build
// of the SDK prints nothing. Without the conformance,
// `let appGroupSharedDefaults = UserDefaults(suiteName: appGroupID)!` (the Wallet Extensions
// guide's global) does not compile in the Swift 6 language mode. PassKit re-exports this module.
extension UserDefaults: @retroactive @unchecked Sendable {}
