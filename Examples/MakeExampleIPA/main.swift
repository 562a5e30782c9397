import DeviceBuildFixtures
import Foundation

// Writes MyIssuer.ipa, the README's example device build: an app with its two Wallet
// extensions, binary Info.plists, Mach-O executables with signed entitlements and embedded
// profiles, where the UI extension was signed without the payment-pass-provisioning
// entitlement. `wallet-host validate MyIssuer.ipa` finds exactly that.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: MakeExampleIPA OUTPUT.ipa\n".utf8))
    exit(2)
}
var build = IssuerBuildFixture.myIssuer(expiring: Date(timeIntervalSinceNow: 300 * 86_400))
build[extension: "MyIssuerUI.appex"].entitlements["com.apple.developer.payment-pass-provisioning"] = nil
do {
    try build.writeIPA(to: URL(fileURLWithPath: path))
} catch {
    FileHandle.standardError.write(Data("cannot write \(path): \(error.localizedDescription)\n".utf8))
    exit(1)
}
