/// A value the solver finds (`Variable`): a view's left edge, a width. Compared by identity;
/// its value is the solver's (``Solver/value(of:)``).
public final class Variable: Hashable, Sendable, CustomStringConvertible {
    /// A name for messages and debugging.
    public let name: String

    /// A variable called `name`.
    public init(_ name: String = "") { self.name = name }

    public static func == (lhs: Variable, rhs: Variable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { name.isEmpty ? "v\(ObjectIdentifier(self).hashValue)" : name }
}

/// A linear expression: a sum of coefficient x variable terms and a constant.
public struct LinearExpression: Sendable, CustomStringConvertible {
    /// The terms, a variable at most once.
    public private(set) var terms: [Variable: Double]
    /// The constant.
    public var constant: Double

    /// `constant + Σ coefficient x variable`.
    public init(_ terms: [Variable: Double] = [:], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    /// The variable alone.
    public init(_ variable: Variable) { self.init([variable: 1]) }

    public var description: String {
        (terms.map { "\($0.value) * \($0.key)" } + ["\(constant)"]).joined(separator: " + ")
    }

    static func sum(_ lhs: LinearExpression, _ rhs: LinearExpression, scale: Double) -> LinearExpression {
        var result = lhs
        for (variable, coefficient) in rhs.terms { result.terms[variable, default: 0] += coefficient * scale }
        result.constant += rhs.constant * scale
        return result
    }
}

/// Something an expression is made from: a variable, a number, an expression.
public protocol LinearExpressionConvertible {
    /// As an expression.
    var expression: LinearExpression { get }
}

extension Variable: LinearExpressionConvertible { public var expression: LinearExpression { LinearExpression(self) } }
extension LinearExpression: LinearExpressionConvertible { public var expression: LinearExpression { self } }
extension Double: LinearExpressionConvertible { public var expression: LinearExpression { LinearExpression(constant: self) } }

public func + (lhs: some LinearExpressionConvertible, rhs: some LinearExpressionConvertible) -> LinearExpression {
    LinearExpression.sum(lhs.expression, rhs.expression, scale: 1)
}
public func - (lhs: some LinearExpressionConvertible, rhs: some LinearExpressionConvertible) -> LinearExpression {
    LinearExpression.sum(lhs.expression, rhs.expression, scale: -1)
}
public func * (lhs: some LinearExpressionConvertible, rhs: Double) -> LinearExpression {
    LinearExpression.sum(LinearExpression(), lhs.expression, scale: rhs)
}
public func * (lhs: Double, rhs: some LinearExpressionConvertible) -> LinearExpression { rhs * lhs }
public func / (lhs: some LinearExpressionConvertible, rhs: Double) -> LinearExpression { lhs * (1 / rhs) }
