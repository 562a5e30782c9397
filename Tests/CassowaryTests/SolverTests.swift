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
        solver.updateVariables()
        #expect(left.value == 90 && right.value == 100 && middle.value == 95)
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
        solver.updateVariables()
        #expect(left.value == 40 && right.value == 60 && middle.value == 50)
        let edit = Constraint(middle, .equal, 20.0, strength: .strong)
        try solver.add(edit)
        solver.updateVariables()
        #expect(middle.value == 20)
        #expect(left.value + right.value == 40 && left.value >= 0 && right.value - left.value >= 10)
        try solver.remove(edit)
        solver.updateVariables()
        #expect(left.value == 40 && right.value == 60, "removing the edit restores the stays")
    }

    @Test("a required constraint beats a weak one it conflicts with; removing it lets the weak one hold")
    func requiredBeatsWeak() throws {
        let x = Variable("x")
        var solver = Solver()
        let required = x |==| 10.0
        try solver.add(required)
        try solver.add(Constraint(x, .equal, 20.0, strength: .weak))
        solver.updateVariables()
        #expect(x.value == 10)
        try solver.remove(required)
        solver.updateVariables()
        #expect(x.value == 20)
    }

    @Test("strong beats medium beats weak, even several weaker at once")
    func strengthsOrder() throws {
        let x = Variable("x")
        var solver = Solver()
        try solver.add(Constraint(x, .equal, 0.0, strength: .weak))
        try solver.add(Constraint(x, .equal, 1.0, strength: .weak))
        try solver.add(Constraint(x, .equal, 5.0, strength: .medium))
        solver.updateVariables()
        #expect(x.value == 5)
        try solver.add(Constraint(x, .equal, 7.0, strength: .strong))
        solver.updateVariables()
        #expect(x.value == 7)
    }

    @Test("an inequality bounds a weak preference: x >= 10 with x weakly 0 is 10")
    func inequalityBoundsPreference() throws {
        let x = Variable("x"), y = Variable("y")
        var solver = Solver()
        try solver.add(x |>=| 10.0)
        try solver.add(y |<=| x - 4.0)
        try solver.add(Constraint(x, .equal, 0.0, strength: .weak))
        try solver.add(Constraint(y, .equal, 100.0, strength: .weak))
        solver.updateVariables()
        #expect(x.value >= 10 && y.value <= x.value - 4)
        #expect(abs((x.value - 0) + (100 - y.value) - (10 + 94)) < 1e-9, "the total error of the weak preferences is the least possible")
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
        solver.updateVariables()
        #expect(x.value == 12)
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
