/// A symbol of the tableau: a constraint's variable, or one the solver makes for a constraint.
struct Symbol: Hashable, Sendable {
    enum Kind: Sendable { case external, slack, error, dummy }
    let id: Int
    let kind: Kind

    /// Slack and error symbols may leave the basis for any other; external and dummy ones not.
    var isPivotable: Bool { kind == .slack || kind == .error }
}

/// One row of the simplex tableau: `basic = constant + Σ coefficient x symbol`.
struct Row: Sendable {
    var constant: Double
    private(set) var cells: [Symbol: Double] = [:]

    init(constant: Double = 0) { self.constant = constant }

    static let epsilon = 1.0e-8
    static func isNearZero(_ value: Double) -> Bool { abs(value) < epsilon }

    func coefficient(for symbol: Symbol) -> Double { cells[symbol] ?? 0 }

    /// Adds `coefficient x symbol`, dropping the cell when it cancels.
    mutating func insert(_ symbol: Symbol, _ coefficient: Double = 1) {
        let value = (cells[symbol] ?? 0) + coefficient
        cells[symbol] = Self.isNearZero(value) ? nil : value
    }

    /// Adds `coefficient x row`.
    mutating func insert(_ row: Row, _ coefficient: Double = 1) {
        constant += row.constant * coefficient
        for (symbol, value) in row.cells { insert(symbol, value * coefficient) }
    }

    mutating func remove(_ symbol: Symbol) { cells[symbol] = nil }

    mutating func reverseSign() {
        constant = -constant
        cells = cells.mapValues { -$0 }
    }

    /// Solves `0 = row` for `symbol`: the row becomes `symbol = ...` without `symbol`.
    mutating func solve(for symbol: Symbol) {
        guard let coefficient = cells.removeValue(forKey: symbol) else { return }
        let scale = -1 / coefficient
        constant *= scale
        cells = cells.mapValues { $0 * scale }
    }

    /// Solves `lhs = row` for `rhs`: the row becomes `rhs = ...` with `lhs` in it.
    mutating func solve(for lhs: Symbol, _ rhs: Symbol) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `symbol` by `row`'s expression.
    mutating func substitute(_ symbol: Symbol, with row: Row) {
        guard let coefficient = cells.removeValue(forKey: symbol) else { return }
        insert(row, coefficient)
    }
}
