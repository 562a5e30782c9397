import WalletExtensionKit

WalletExtension.main { AuthorizationViewController() }
