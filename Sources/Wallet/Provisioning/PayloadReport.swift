import Foundation

/// The checks of a decrypted `ECC_V2` payload, and the findings they make. The card number
/// never appears in a finding: only its last four digits, masked.
struct PayloadReport {
    /// Field names of the decrypted payload's JSON.
    enum Key {
        static let primaryAccountNumber = "primaryAccountNumber"
        static let expiration = "expiration"
        static let name = "name"
        static let nonce = "nonce"
        static let nonceSignature = "nonceSignature"
    }

    let entryIdentifier: String
    private(set) var findings: [EntryFinding] = []

    init(entryIdentifier: String) {
        self.entryIdentifier = entryIdentifier
    }

    mutating func error(_ field: String, _ problem: String) {
        findings.append(EntryFinding(.error, entryIdentifier: entryIdentifier, field: field, problem: problem))
    }

    mutating func warning(_ field: String, _ problem: String) {
        findings.append(EntryFinding(.warning, entryIdentifier: entryIdentifier, field: field, problem: problem))
    }

    func verification(scheme: String, decrypted: Bool, variant: String?, summary: String) -> PassDataVerification {
        var verification = PassDataVerification(scheme: scheme, status: findings.containsErrors || !decrypted ? .failed : .verified,
                                                decrypted: decrypted, variant: variant, problems: findings.map(\.description),
                                                summary: summary)
        verification.findings = findings
        return verification
    }

    /// Checks the decrypted JSON; nil when it is not a JSON object (an error is recorded).
    mutating func check(_ plaintext: Data, expecting: PassDataVerifier.Expectations) -> PassDataVerification.Payload? {
        let field = { (key: String) in "encryptedPassData.\(key)" }
        guard let object = (try? JSONSerialization.jsonObject(with: plaintext)) as? [String: Any] else {
            error(EntryFinding.Field.encryptedPassData, "the decrypted payload (\(byteCountText(plaintext.count))) is not a JSON object; "
                  + "Wallet expects {\"primaryAccountNumber\", \"expiration\", \"name\", \"nonce\", \"nonceSignature\"}")
            return nil
        }
        let number = checkNumber(object[Key.primaryAccountNumber], field: field(Key.primaryAccountNumber),
                                 suffix: expecting.primaryAccountSuffix)
        let expiration = checkExpiration(object[Key.expiration], field: field(Key.expiration), now: expecting.now)
        let name = object[Key.name] as? String
        if let name, !name.trimmingCharacters(in: .whitespaces).isEmpty {
            if let expected = expecting.cardholderName, !expected.isEmpty,
               name.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare(expected.trimmingCharacters(in: .whitespaces)) != .orderedSame {
                warning(field(Key.name), "name \"\(name)\" differs from the entry's cardholderName \"\(expected)\"")
            }
        } else {
            error(field(Key.name), "name is \(object[Key.name] == nil ? "missing" : "empty or not a string"); Wallet needs the cardholder's name")
        }
        let nonceMatches = checkHex(object[Key.nonce], field: field(Key.nonce), expected: expecting.nonce, what: "the nonce",
                                    earlier: expecting.earlierNonces)
        let signatureMatches = checkHex(object[Key.nonceSignature], field: field(Key.nonceSignature),
                                        expected: expecting.nonceSignature, what: "the nonce signature", earlier: [])
        return PassDataVerification.Payload(primaryAccountNumber: number.map(PassDataVerification.masked), expiration: expiration,
                                            name: name, nonceMatches: nonceMatches, nonceSignatureMatches: signatureMatches)
    }

    /// The card number when it is one (digits, 12 to 19 of them); every problem is recorded.
    private mutating func checkNumber(_ value: Any?, field: String, suffix: String?) -> String? {
        guard let number = value as? String, !number.isEmpty else {
            error(field, "primaryAccountNumber is \(value == nil ? "missing" : "not a string of digits"); Wallet needs the card number")
            return nil
        }
        guard number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            error(field, "primaryAccountNumber has characters other than digits (spaces or dashes?); send the digits alone")
            return nil
        }
        let masked = PassDataVerification.masked(number)
        if !(12...19).contains(number.count) {
            error(field, "the card number \(masked) has \(number.count) digits; card numbers have 12 to 19")
        }
        if !Self.passesLuhn(number) {
            error(field, "the card number \(masked) fails the Luhn check: a digit is wrong")
        }
        if let suffix, !suffix.isEmpty, !number.hasSuffix(suffix) {
            error(field, "the card number \(masked) does not end with the entry's primaryAccountSuffix \(suffix): "
                  + "the backend encrypted another card")
        }
        return number
    }

    /// Whether `digits` passes the Luhn check.
    static func passesLuhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard let digit = character.wholeNumberValue else { return false }
            if index.isMultiple(of: 2) {
                sum += digit
            } else {
                sum += digit * 2 > 9 ? digit * 2 - 9 : digit * 2
            }
        }
        return sum.isMultiple(of: 10)
    }

    private mutating func checkExpiration(_ value: Any?, field: String, now: Date) -> String? {
        guard let text = value as? String else {
            error(field, "expiration is \(value == nil ? "missing" : "not a string"); Wallet needs it as MM/YY")
            return nil
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let month = Int(parts[0]), let year = Int(parts[1]), (1...12).contains(month) else {
            error(field, "expiration \"\(text)\" is not MM/YY (a month 01-12, a slash, two digits of the year)")
            return text
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let today = calendar.dateComponents([.year, .month], from: now)
        let current = (today.year ?? 2000) * 12 + (today.month ?? 1)
        // A card is valid through the last day of its expiration month.
        if (2000 + year) * 12 + month < current {
            error(field, "expiration \(text) is in the past: Wallet does not add an expired card")
        }
        return text
    }

    /// Whether the hex text in `value` spells `expected`; records what is wrong when not.
    private mutating func checkHex(_ value: Any?, field: String, expected: Data, what: String, earlier: [Data]) -> Bool {
        let key = field.split(separator: ".").last.map(String.init) ?? field
        guard let text = value as? String else {
            error(field, "\(key) is \(value == nil ? "missing" : "not a string"); it must be \(what) Wallet sent, in hex")
            return false
        }
        guard let bytes = TextBytes.hex(Data(text.utf8)) else {
            let base64 = Data(base64Encoded: text)
            let hint = base64 == expected ? ": it is the right bytes in base64; send hex" : ""
            error(field, "\(key) \"\(text)\" is not hex\(hint)")
            return false
        }
        guard bytes == expected else {
            if earlier.contains(bytes) {
                error(field, "\(key) is the nonce Wallet sent for an earlier card, not this one's: a replayed nonce "
                      + "(the backend must use the nonce of this request)")
            } else {
                error(field, "\(key) \(text) is not \(what) Wallet sent for this card (\(TextBytes.hexString(expected)))")
            }
            return false
        }
        return true
    }
}
