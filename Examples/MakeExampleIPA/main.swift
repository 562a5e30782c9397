import DeviceBuildFixtures
import Foundation

// Writes MyIssuer.ipa, the README's example device build: an app with its two Wallet
// extensions, binary Info.plists, Mach-O executables with signed entitlements and embedded
// profiles, where the UI extension was signed without the payment-pass-provisioning
// entitlement. `wallet-host validate MyIssuer.ipa` finds exactly that.
// `--executable-mb N` pads the app's executable to about N MB of code-like bytes (scripts/bench-validate).
var arguments = Array(CommandLine.arguments.dropFirst())
var executableMegabytes = 0
if let flag = arguments.firstIndex(of: "--executable-mb"), flag + 1 < arguments.count, let megabytes = Int(arguments[flag + 1]), megabytes >= 0 {
    executableMegabytes = megabytes
    arguments.removeSubrange(flag...(flag + 1))
}
guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: MakeExampleIPA OUTPUT.ipa [--executable-mb N]\n".utf8))
    exit(2)
}
var build = IssuerBuildFixture.myIssuer(expiring: Date(timeIntervalSinceNow: 300 * 86_400))
build[extension: "MyIssuerUI.appex"].entitlements["com.apple.developer.payment-pass-provisioning"] = nil
build.app.executablePadding = IssuerBuildFixture.codeLikeBytes(count: executableMegabytes << 20)
do {
    try build.writeIPA(to: URL(fileURLWithPath: path))
} catch {
    FileHandle.standardError.write(Data("cannot write \(path): \(error.localizedDescription)\n".utf8))
    exit(1)
}
