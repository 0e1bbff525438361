/// One way a live schema departs from the schema its applied migrations produce.
public enum SchemaDifference: Sendable, Equatable, CustomStringConvertible {
    /// The migrations create the object; the database lacks it (dropped by hand?).
    case missing(SchemaSnapshot.Object)
    /// The database has the object; no applied migration creates it (added by hand?).
    case unexpected(SchemaSnapshot.Object)
    /// Both have the object, with different definitions.
    case changed(expected: SchemaSnapshot.Object, actual: SchemaSnapshot.Object)

    /// One line naming the object and what differs.
    public var description: String {
        switch self {
        case .missing(let object):
            return "\(object.label) is missing: the migrations create it but the database has none (dropped by hand?)"
        case .unexpected(let object):
            return "\(object.label) is in the database but no applied migration creates it (added by hand?)"
        case .changed(let expected, let actual):
            if expected.type != actual.type {
                return "\(expected.label) is a \(actual.type) in the database, not a \(expected.type)"
            }
            let (wanted, found) = SQLTokens.firstDifference(expected.normalisedTokens, actual.normalisedTokens)
            return "\(expected.label) differs from what the migrations create: expected `\(wanted)` where the database has `\(found)`"
        }
    }
}
