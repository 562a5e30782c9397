/// "Did you mean" for a mistyped name: the known name closest to it, when it is close enough to
/// be the one meant (`confrom` -> `conform`, `--user-agnet` -> `--user-agent`, `Status` -> `status`).
enum NearestName {
    /// The candidate nearest `typed`, or nil when none is near: a case-only difference always
    /// counts; otherwise at most a third of the typed name's letters may differ (at least one),
    /// counting a swap of two neighbours as one edit.
    static func to(_ typed: String, among candidates: [String]) -> String? {
        if let sameLetters = candidates.first(where: { $0.lowercased() == typed.lowercased() }) { return sameLetters }
        let allowed = max(1, typed.count / 3)
        let scored = candidates.map { ($0, distance(typed.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= allowed else { return nil }
        return best.0
    }

    /// The sentence ending a usage error: ` (did you mean conform?)`, or nothing.
    static func hint(_ typed: String, among candidates: [String], prefix: String = "") -> String {
        to(typed, among: candidates).map { " (did you mean \(prefix)\($0)?)" } ?? ""
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbouring letters each count one.
    static func distance(_ left: String, _ right: String) -> Int {
        let a = Array(left), b = Array(right)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
