import Testing
@testable import Wallet
import WalletWire

/// `instance-state` compares two `passEntries` answers by identifier, not by position.
struct EntryComparisonTests {
    @Test("the same cards in another order are the same answer (entries built from a dictionary)")
    func reorderedEntriesAgree() {
        let first = [PassEntryFixtures.validEntry("card-1"), PassEntryFixtures.validEntry("card-2"),
                     PassEntryFixtures.validEntry("card-3")]
        let second = [first[2], first[0], first[1]]
        #expect(EntryComparison.difference(first, second) == nil)
    }

    @Test("a card whose title changed is named by its identifier, whatever its position")
    func changedTitleIsFoundByIdentifier() {
        let first = [PassEntryFixtures.validEntry("card-1"), PassEntryFixtures.validEntry("card-2")]
        var renamed = first[0]
        renamed.title = "Renamed"
        let difference = EntryComparison.difference(first, [first[1], renamed])
        #expect(difference == "entry card-1: title \"Example Debit\" the first time, \"Renamed\" the second")
    }

    @Test("a card replaced by another is reported with both lists of identifiers")
    func replacedCardDiffers() {
        let first = [PassEntryFixtures.validEntry("card-1"), PassEntryFixtures.validEntry("card-2")]
        let second = [PassEntryFixtures.validEntry("card-1"), PassEntryFixtures.validEntry("card-9")]
        #expect(EntryComparison.difference(first, second)
                == "identifiers [\"card-1\", \"card-2\"] the first time, [\"card-1\", \"card-9\"] the second")
    }
}
