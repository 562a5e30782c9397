import WalletExtensionKit

WalletExtension.main { AuthorizationHostingController() }
