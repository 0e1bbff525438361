/// The colours an item can have. An item with no colour has `color == nil`, never a sentinel case.
public enum Color: String, CaseIterable, Sendable, Hashable {
    /// Black.
    case black
    /// Blue.
    case blue
    /// Green.
    case green
    /// Red.
    case red
    /// White.
    case white
    /// Yellow.
    case yellow
}
