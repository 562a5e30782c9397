/// Why a solver refused a constraint.
public enum SolverError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A required constraint conflicts with the required constraints already added; the solver
    /// is as it was before.
    case unsatisfiable(String)
    /// The constraint is already in the solver.
    case duplicate(String)
    /// The constraint is not in the solver.
    case unknown(String)

    public var description: String {
        switch self {
        case .unsatisfiable(let constraint): return "unsatisfiable required constraint: \(constraint)"
        case .duplicate(let constraint): return "constraint added twice: \(constraint)"
        case .unknown(let constraint): return "constraint not in the solver: \(constraint)"
        }
    }
}

/// The Cassowary linear arithmetic constraint solver (Badros, Borning and Stuckey, 2001): an
/// incremental dual of the simplex method over a tableau in basic feasible solved form. Each
/// constraint becomes a row with a slack variable (inequalities), error variables (non-required
/// constraints, weighted by strength in the objective) or a dummy (required equalities); a row
/// whose constraint has no variable to solve for is added through an artificial variable (phase
/// one of the simplex method), which tells an unsatisfiable required constraint. The objective,
/// the weighted sum of the errors, is then minimised by pivoting. The structure follows the
/// algorithm as the kiwi solver implements it.
public struct Solver: Sendable {
    private struct Tag: Sendable {
        var marker: Symbol
        var other: Symbol?
    }

    private var constraints: [Constraint: Tag] = [:]
    private var rows: [Symbol: Row] = [:]
    private var variables: [Variable: Symbol] = [:]
    private var objective = Row()
    private var artificial: Row?
    private var nextID = 0

    public init() {}

    /// True when `constraint` is in the solver.
    public func contains(_ constraint: Constraint) -> Bool { constraints[constraint] != nil }

    /// Adds `constraint` and re-optimises. A required constraint that conflicts with the others
    /// throws ``SolverError/unsatisfiable(_:)`` and leaves the solver as it was.
    public mutating func add(_ constraint: Constraint) throws(SolverError) {
        guard constraints[constraint] == nil else { throw .duplicate(constraint.description) }
        let before = self
        var (row, tag) = makeRow(for: constraint)
        var subject = chooseSubject(row, tag)
        if subject == nil, row.cells.keys.allSatisfy({ $0.kind == .dummy }) {
            guard Row.isNearZero(row.constant) else {
                self = before
                throw .unsatisfiable(constraint.description)
            }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            substitute(subject, with: row)
            rows[subject] = row
        } else if !addWithArtificialVariable(row) {
            self = before
            throw .unsatisfiable(constraint.description)
        }
        constraints[constraint] = tag
        optimize(objectiveRow: nil)
    }

    /// Removes `constraint` and re-optimises.
    public mutating func remove(_ constraint: Constraint) throws(SolverError) {
        guard let tag = constraints.removeValue(forKey: constraint) else { throw .unknown(constraint.description) }
        for symbol in [tag.marker, tag.other].compactMap({ $0 }) where symbol.kind == .error {
            if let row = rows[symbol] { objective.insert(row, -constraint.strength.weight) } else {
                objective.insert(symbol, -constraint.strength.weight)
            }
        }
        if rows.removeValue(forKey: tag.marker) == nil, let leaving = markerLeavingSymbol(tag.marker), var row = rows.removeValue(forKey: leaving) {
            row.solve(for: leaving, tag.marker)
            substitute(tag.marker, with: row)
        }
        optimize(objectiveRow: nil)
    }

    /// The value of `variable` in the current solution (0 for a variable in no constraint).
    public func value(of variable: Variable) -> Double {
        variables[variable].flatMap { rows[$0]?.constant } ?? 0
    }

    // MARK: Rows

    private mutating func symbol(_ kind: Symbol.Kind) -> Symbol {
        nextID += 1
        return Symbol(id: nextID, kind: kind)
    }

    /// The constraint's row, with the slack, error or dummy symbols it needs, in terms of the
    /// current parametric symbols; its constant made non-negative.
    private mutating func makeRow(for constraint: Constraint) -> (Row, Tag) {
        var row = Row(constant: constraint.expression.constant)
        for (variable, coefficient) in constraint.expression.terms where !Row.isNearZero(coefficient) {
            let symbol = variables[variable] ?? {
                let made = self.symbol(.external)
                variables[variable] = made
                return made
            }()
            if let basic = rows[symbol] { row.insert(basic, coefficient) } else { row.insert(symbol, coefficient) }
        }
        let weight = constraint.strength.weight
        var tag: Tag
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let sign: Double = constraint.relation == .lessThanOrEqual ? 1 : -1
            let slack = symbol(.slack)
            tag = Tag(marker: slack)
            row.insert(slack, sign)
            if !constraint.strength.isRequired {
                let error = symbol(.error)
                tag.other = error
                row.insert(error, -sign)
                objective.insert(error, weight)
            }
        case .equal:
            if constraint.strength.isRequired {
                let dummy = symbol(.dummy)
                tag = Tag(marker: dummy)
                row.insert(dummy)
            } else {
                let plus = symbol(.error), minus = symbol(.error)
                tag = Tag(marker: plus, other: minus)
                row.insert(plus, -1)
                row.insert(minus, 1)
                objective.insert(plus, weight)
                objective.insert(minus, weight)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, tag)
    }

    /// An external symbol, else the constraint's slack or error symbol with a negative coefficient.
    private func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol? {
        if let external = row.cells.keys.filter({ $0.kind == .external }).min(by: { $0.id < $1.id }) { return external }
        for symbol in [tag.marker, tag.other].compactMap({ $0 }) where symbol.isPivotable && row.coefficient(for: symbol) < 0 {
            return symbol
        }
        return nil
    }

    /// Phase one: an artificial variable for `row`, minimised; the row is satisfiable when it reaches zero.
    private mutating func addWithArtificialVariable(_ row: Row) -> Bool {
        let artificialSymbol = symbol(.slack)
        rows[artificialSymbol] = row
        artificial = row
        optimize(objectiveRow: true)
        let succeeded = Row.isNearZero(artificial?.constant ?? 0)
        artificial = nil
        if var basic = rows.removeValue(forKey: artificialSymbol) {
            if basic.cells.isEmpty { return succeeded }
            guard let entering = basic.cells.keys.filter(\.isPivotable).min(by: { $0.id < $1.id }) else { return false }
            basic.solve(for: artificialSymbol, entering)
            substitute(entering, with: basic)
            rows[entering] = basic
        }
        for key in rows.keys { rows[key]?.remove(artificialSymbol) }
        objective.remove(artificialSymbol)
        return succeeded
    }

    /// Replaces `symbol` by `row` in every row and the objectives.
    private mutating func substitute(_ symbol: Symbol, with row: Row) {
        for key in rows.keys { rows[key]?.substitute(symbol, with: row) }
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Minimises the objective (or the artificial one) by pivoting: the entering symbol has a
    /// negative objective coefficient, the leaving row the smallest ratio.
    private mutating func optimize(objectiveRow useArtificial: Bool?) {
        while true {
            let goal = useArtificial == true ? artificial ?? Row() : objective
            // The lowest-numbered candidates, so that equally good solutions come out the same every run.
            let candidates = goal.cells.filter { $0.key.kind != .dummy && $0.value < 0 }.keys
            guard let entering = candidates.min(by: { $0.id < $1.id }) else { return }
            var best = Double.infinity
            var leaving: Symbol?
            for (symbol, row) in rows where symbol.kind != .external {
                let coefficient = row.coefficient(for: entering)
                guard coefficient < 0 else { continue }
                let ratio = -row.constant / coefficient
                if ratio < best || (ratio == best && symbol.id < leaving?.id ?? .max) {
                    best = ratio
                    leaving = symbol
                }
            }
            // An unbounded objective cannot happen with non-negative weights; stop rather than spin.
            guard let leaving, var row = rows.removeValue(forKey: leaving) else { return }
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            rows[entering] = row
        }
    }

    /// The row to pivot `marker` into when removing its constraint.
    private func markerLeavingSymbol(_ marker: Symbol) -> Symbol? {
        var first: (Symbol, Double)?, second: (Symbol, Double)?, third: Symbol?
        for (symbol, row) in rows {
            let coefficient = row.coefficient(for: marker)
            if coefficient == 0 { continue }
            if symbol.kind == .external {
                third = symbol
            } else if coefficient < 0 {
                let ratio = -row.constant / coefficient
                if ratio < first?.1 ?? .infinity { first = (symbol, ratio) }
            } else {
                let ratio = row.constant / coefficient
                if ratio < second?.1 ?? .infinity { second = (symbol, ratio) }
            }
        }
        return first?.0 ?? second?.0 ?? third
    }
}
