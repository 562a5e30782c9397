// The one file iOS does not have. This module has its own type named `WalletExtension`
// (IssuerConfiguration.swift), so the SDK's entry point is called by its qualified name.
import WalletExtensionKit

WalletExtensionKit.WalletExtension.main { PatternNonUIExtHandler() }
