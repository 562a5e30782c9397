import Cassowary
import Testing

/// The solver against the examples of Badros, Borning and Stuckey, "The Cassowary linear
/// arithmetic constraint solving algorithm" (ACM TOCHI, 2001), and the behaviour the paper
/// gives strengths: required constraints always hold, a stronger preference wins over weaker
/// ones, and a required constraint that cannot hold is reported.
@Suite("Cassowary solver")
struct SolverTests {
    @Test("the paper's midpoint example: xm = (xl + xr) / 2, xl + 10 <= xr, 0 <= xl, xr <= 100; a weak xl = 95 gives way")
    func midpoint() throws {
        let left = Variable("xl"), middle = Variable("xm"), right = Variable("xr")
        var solver = Solver()
        try solver.add(2.0 * middle |==| left + right)
        try solver.add(left + 10.0 |<=| right)
        try solver.add(right |<=| 100.0)
        try solver.add(left |>=| 0.0)
        try solver.add(Constraint(left, .equal, 95.0, strength: .weak))
        #expect(solver.value(of: left) == 90 && solver.value(of: right) == 100 && solver.value(of: middle) == 95)
    }

    @Test("the paper's midpoint example with the edit moving the midpoint: xm strongly 20 with weak stays on the ends")
    func midpointMovedByAStrongPreference() throws {
        let left = Variable("xl"), middle = Variable("xm"), right = Variable("xr")
        var solver = Solver()
        try solver.add(2.0 * middle |==| left + right)
        try solver.add(left + 10.0 |<=| right)
        try solver.add(right |<=| 100.0)
        try solver.add(left |>=| 0.0)
        try solver.add(Constraint(left, .equal, 40.0, strength: .weak))
        try solver.add(Constraint(right, .equal, 60.0, strength: .weak))
        #expect(solver.value(of: left) == 40 && solver.value(of: right) == 60 && solver.value(of: middle) == 50)
        let edit = Constraint(middle, .equal, 20.0, strength: .strong)
        try solver.add(edit)
        #expect(solver.value(of: middle) == 20)
        let (leftValue, rightValue) = (solver.value(of: left), solver.value(of: right))
        #expect(leftValue + rightValue == 40 && leftValue >= 0 && rightValue - leftValue >= 10)
        try solver.remove(edit)
        #expect(solver.value(of: left) == 40 && solver.value(of: right) == 60, "removing the edit restores the stays")
    }

    @Test("a required constraint beats a weak one it conflicts with; removing it lets the weak one hold")
    func requiredBeatsWeak() throws {
        let x = Variable("x")
        var solver = Solver()
        let required = x |==| 10.0
        try solver.add(required)
        try solver.add(Constraint(x, .equal, 20.0, strength: .weak))
        #expect(solver.value(of: x) == 10)
        try solver.remove(required)
        #expect(solver.value(of: x) == 20)
    }

    @Test("strong beats medium beats weak, even several weaker at once")
    func strengthsOrder() throws {
        let x = Variable("x")
        var solver = Solver()
        try solver.add(Constraint(x, .equal, 0.0, strength: .weak))
        try solver.add(Constraint(x, .equal, 1.0, strength: .weak))
        try solver.add(Constraint(x, .equal, 5.0, strength: .medium))
        #expect(solver.value(of: x) == 5)
        try solver.add(Constraint(x, .equal, 7.0, strength: .strong))
        #expect(solver.value(of: x) == 7)
    }

    @Test("an inequality bounds a weak preference: x >= 10 with x weakly 0 is 10")
    func inequalityBoundsPreference() throws {
        let x = Variable("x"), y = Variable("y")
        var solver = Solver()
        try solver.add(x |>=| 10.0)
        try solver.add(y |<=| x - 4.0)
        try solver.add(Constraint(x, .equal, 0.0, strength: .weak))
        try solver.add(Constraint(y, .equal, 100.0, strength: .weak))
        #expect(solver.value(of: x) >= 10 && solver.value(of: y) <= solver.value(of: x) - 4)
        #expect(abs((solver.value(of: x) - 0) + (100 - solver.value(of: y)) - (10 + 94)) < 1e-9, "the total error of the weak preferences is the least possible")
    }

    @Test("an unsatisfiable required constraint is reported, and the solver keeps working as before it")
    func unsatisfiableRequired() throws {
        let x = Variable("x")
        var solver = Solver()
        try solver.add(x |>=| 10.0)
        let conflicting = x |<=| 5.0
        #expect(throws: SolverError.self) { try solver.add(conflicting) }
        #expect(!solver.contains(conflicting))
        #expect(throws: SolverError.self) { try solver.add(x + 0.0 |==| x + 1.0) }
        try solver.add(Constraint(x, .equal, 12.0, strength: .medium))
        #expect(solver.value(of: x) == 12)
    }

    @Test("a constraint added twice, or removed when absent, is refused")
    func duplicatesAndUnknowns() throws {
        let x = Variable("x")
        var solver = Solver()
        let constraint = x |==| 3.0
        try solver.add(constraint)
        #expect(throws: SolverError.self) { try solver.add(constraint) }
        #expect(throws: SolverError.self) { try solver.remove(x |==| 4.0) }
    }
}
