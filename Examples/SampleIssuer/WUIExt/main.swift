// The UI extension's executable: the runtime finds WUIExt.WUIExtHandler (the
// NSExtensionPrincipalClass, $(PRODUCT_MODULE_NAME).WUIExtHandler) by name.
import WalletExtensionKit

WalletExtension.main()
