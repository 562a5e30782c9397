import Testing
import Wallet
import WalletHostRuntime
import WalletWire

/// The registry's rows (deadlines, consequences) and the wire method table name the same calls.
@Suite("Extension point registry and the method table")
struct RegistryMethodTableTests {
    @Test("each Wallet point defines exactly the table's calls of its role, in table order")
    func pointsMatchTheTable() throws {
        for point in ExtensionPointRegistry.wallet.points {
            let role = try #require(WireMethodRole(extensionPoint: point.identifier), "\(point.identifier)")
            #expect(role.rawValue == point.role.rawValue, "\(point.identifier)")
            #expect(point.methods.map(\.name) == WireMethods.calls(for: role).map(\.name), "\(point.identifier)")
        }
    }
}
