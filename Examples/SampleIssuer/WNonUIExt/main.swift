// The non-UI extension's executable, the one file an iOS extension does not have: it names
// the principal class (Info.plist's NSExtensionPrincipalClass, $(PRODUCT_MODULE_NAME).WNonUIExtHandler).
import WalletExtensionKit

WalletExtension.main { WNonUIExtHandler() }
