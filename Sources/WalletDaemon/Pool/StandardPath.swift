/// Paths already in the form `URL(fileURLWithPath:).standardizedFileURL.path` gives them, so
/// that a lookup by path need not build a `URL` (a quarter of a warm call's path handling).
enum StandardPath {
    /// Absolute, without a trailing slash, an empty component, `.` or `..`: a path that
    /// standardizing leaves as it is.
    static func isStandardized(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.count > 1, bytes[0] == UInt8(ascii: "/"), bytes[bytes.count - 1] != UInt8(ascii: "/") else { return false }
            // Each component, between slashes: not empty, not "." or "..".
            var start = 1
            for index in 1...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                let length = index - start
                if length == 0 { return false }
                if bytes[start] == UInt8(ascii: "."), length == 1 || (length == 2 && bytes[start + 1] == UInt8(ascii: ".")) { return false }
                start = index + 1
            }
            return true
        }
    }
}
