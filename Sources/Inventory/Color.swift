/// The colours an item can have. An item with no colour has `color == nil`, never a sentinel case.
public enum Color: String, CaseIterable, Sendable, Hashable {
    case black, blue, green, red, white, yellow
}
