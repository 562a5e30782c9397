/// How strongly a constraint holds (`Strength`): a required constraint must hold; the others
/// are satisfied as well as they can be, a stronger one before any number of weaker ones within
/// the three symbolic levels (Cassowary's strong, medium, weak as kiwi weighs them: 10⁶, 10³, 1).
public struct Strength: Hashable, Comparable, Sendable {
    /// The weight of the constraint's error in the objective.
    public let weight: Double

    /// A strength of `weight`, capped at ``required``.
    public init(_ weight: Double) { self.weight = min(max(weight, 0), Self.required.weight) }
    private init(exactly weight: Double) { self.weight = weight }

    /// `strong x 10⁶ + medium x 10³ + weak`, each level 0...1000.
    public static func symbolic(strong: Double, medium: Double, weak: Double) -> Strength {
        Strength([strong, medium, weak].enumerated().map { min(max($1, 0), 1000) * pow10(3 * (2 - $0)) }.reduce(0, +))
    }

    public static let required = Strength(exactly: 1_001_001_000)
    public static let strong = Strength(exactly: 1_000_000)
    public static let medium = Strength(exactly: 1000)
    public static let weak = Strength(exactly: 1)

    /// True for a constraint that must hold.
    public var isRequired: Bool { weight >= Self.required.weight }

    public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.weight < rhs.weight }

    private static func pow10(_ exponent: Int) -> Double { (0..<exponent).reduce(1) { value, _ in value * 10 } }
}

/// A linear constraint `expression (== | <= | >=) 0` with a strength. Compared by identity: a
/// constraint is added to and removed from a solver as itself.
public final class Constraint: Hashable, Sendable, CustomStringConvertible {
    /// The relation to zero.
    public enum Relation: Sendable { case equal, lessThanOrEqual, greaterThanOrEqual }

    public let expression: LinearExpression
    public let relation: Relation
    public let strength: Strength

    /// `lhs relation rhs` at `strength`.
    public init(_ lhs: some LinearExpressionConvertible, _ relation: Relation, _ rhs: some LinearExpressionConvertible, strength: Strength = .required) {
        expression = lhs - rhs
        self.relation = relation
        self.strength = strength
    }

    public static func == (lhs: Constraint, rhs: Constraint) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String {
        let relation = [Relation.equal: "==", .lessThanOrEqual: "<=", .greaterThanOrEqual: ">="][self.relation]!
        return "\(expression) \(relation) 0 (\(strength.isRequired ? "required" : "\(strength.weight)"))"
    }
}

infix operator |==| : ComparisonPrecedence
infix operator |<=| : ComparisonPrecedence
infix operator |>=| : ComparisonPrecedence

/// A required `lhs == rhs`.
public func |==| (lhs: some LinearExpressionConvertible, rhs: some LinearExpressionConvertible) -> Constraint { Constraint(lhs, .equal, rhs) }
/// A required `lhs <= rhs`.
public func |<=| (lhs: some LinearExpressionConvertible, rhs: some LinearExpressionConvertible) -> Constraint { Constraint(lhs, .lessThanOrEqual, rhs) }
/// A required `lhs >= rhs`.
public func |>=| (lhs: some LinearExpressionConvertible, rhs: some LinearExpressionConvertible) -> Constraint {
    Constraint(lhs, .greaterThanOrEqual, rhs)
}

extension Constraint {
    /// The same relation at `strength`.
    public func at(_ strength: Strength) -> Constraint { Constraint(expression, relation, 0.0, strength: strength) }
}
