// The UI extension's executable, the one file an iOS extension does not have: it names the
// principal class (Info.plist's NSExtensionPrincipalClass, $(PRODUCT_MODULE_NAME).WUIExtHandler).
import WalletExtensionKit

WalletExtension.main { WUIExtHandler() }
