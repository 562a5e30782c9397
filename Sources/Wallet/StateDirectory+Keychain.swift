import Foundation

/// Where the simulated keychain lives: one file per team, `keychain/<team>.json`, each written
/// under a lock of its own (`keychain/.<team>.lock`), so that one issuer's items never slow
/// another's writes (issue 31, break 9). The single `keychain.json` of older hosts is still read;
/// a team's items move out of it into the team's file on the team's first write.
extension StateDirectory {
    /// `keychain/`: a file per team.
    public var keychainDirectoryURL: URL { url.appendingPathComponent("keychain") }

    /// The file of `team`'s keychain items, `keychain/<team>.json`: the team with every byte
    /// outside letters, digits, `-`, `_` and `.` (and a leading `.`) written `%XX`.
    /// - Throws: ``StateError`` naming the team when it is too long to name a file.
    public func keychainURL(team: String) throws -> URL {
        keychainDirectoryURL.appendingPathComponent(try Self.keychainFileStem(team: team) + ".json")
    }

    /// The lock of `team`'s keychain file.
    func keychainLockURL(team: String) throws -> URL {
        keychainDirectoryURL.appendingPathComponent("." + (try Self.keychainFileStem(team: team)) + ".lock")
    }

    /// The most bytes of a team's file name (without `.json`): room is left for the
    /// temporary files' `.<name>.<pid>.<random>.tmp` within the 255 bytes of a name.
    static let longestKeychainFileStem = 200

    static func keychainFileStem(team: String) throws -> String {
        var stem = ""
        for byte in team.utf8 {
            let scalar = Unicode.Scalar(byte)
            let plain = (("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                         || scalar == "-" || scalar == "_" || (scalar == "." && !stem.isEmpty))
            stem += plain ? String(scalar) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
        }
        guard !stem.isEmpty, stem.utf8.count <= longestKeychainFileStem else {
            throw StateError("the team \"\(team)\" cannot name a keychain file in \(keychainDirectoryName): "
                                 + "it is empty or longer than \(longestKeychainFileStem) bytes")
        }
        return stem
    }

    static let keychainDirectoryName = "keychain/"
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
