import Foundation

extension NewPackageTemplate {
    /// Unit tests of the non-UI extension, with a pass library, defaults and watch of their own.
    var cardsTests: String {
        """
        import Foundation
        import PassKit
        import Testing
        @testable import \(names.cardsTarget)

        /// A pass library with no passes, as on a new iPhone (the real one asks the host).
        final class EmptyPassLibrary: PKPassLibrary {
            override func passes(of passType: PKPassType) -> [PKPass] { [] }
        }

        struct NoWatch: WatchPairing {
            var isPaired: Bool { false }
        }

        /// Defaults of their own, as the app leaves them.
        func defaults(cards: [Card]) throws -> UserDefaults {
            let defaults = try #require(UserDefaults(suiteName: "\(names.testTarget)-\\(UUID().uuidString)"))
            if !cards.isEmpty {
                defaults.set(try JSONEncoder().encode(cards), forKey: SharedDefaultsKey.cards)
                defaults.set(true, forKey: SharedDefaultsKey.requiresAuthentication)
            }
            return defaults
        }

        @Test func beforeSignInNothingIsOffered() async throws {
            let handler = \(names.cardsHandler)(passLibrary: EmptyPassLibrary(), defaults: try defaults(cards: []), watch: NoWatch(), server: nil)
            let status = await handler.status()
            #expect(!status.passEntriesAvailable)
            #expect(!status.remotePassEntriesAvailable)
        }

        @Test func afterSignInTheCardsAreOfferedBehindAuthentication() async throws {
            let card = Card(identifier: "CARD-1", title: "Card", suffix: "4242", cardholder: "Jane Appleseed", network: "Visa")
            let handler = \(names.cardsHandler)(passLibrary: EmptyPassLibrary(), defaults: try defaults(cards: [card]), watch: NoWatch(), server: nil)
            let status = await handler.status()
            #expect(status.passEntriesAvailable)
            #expect(status.requiresAuthentication)
            #expect(!status.remotePassEntriesAvailable, "no watch is paired")
            #expect(handler.storedCards() == [card])
        }

        """
    }
}
