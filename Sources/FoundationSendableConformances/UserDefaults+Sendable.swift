import Foundation

// Apple's SDKs declare UserDefaults thread-safe and Sendable; swift-corelibs-foundation marks
// the conformance unavailable (hence the compiler's "already stated" warning here). Without this, `let appGroupSharedDefaults = UserDefaults(suiteName: appGroupID)!`
// (the Wallet Extensions guide's global) does not compile in the Swift 6 language mode.
extension UserDefaults: @retroactive @unchecked Sendable {}
