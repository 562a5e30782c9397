// The non-UI extension's executable: the runtime finds WNonUIExt.WNonUIExtHandler (the
// NSExtensionPrincipalClass, $(PRODUCT_MODULE_NAME).WNonUIExtHandler) by name.
import WalletExtensionKit

WalletExtension.main()
