import ArgumentParser
import Inventory

extension Color: ExpressibleByArgument {}

/// `--quantity N | --out-of-stock [--back-order]`: the status of an item or draft.
struct StatusOptions: ParsableArguments {
    // .unconditional: "--quantity -3" must reach validate() and its clear message instead of
    // "-3" being taken for an unknown flag and the value reported missing.
    @Option(parsing: .unconditional, help: ArgumentHelp("In stock with this many (at least 1).", valueName: "n"))
    var quantity: Int?

    @Flag(help: "Out of stock.")
    var outOfStock = false

    @Flag(help: "Out of stock and on back order (with --out-of-stock).")
    var backOrder = false

    func validate() throws {
        if quantity != nil && outOfStock {
            throw ValidationError("--quantity and --out-of-stock cannot be used together")
        }
        if backOrder && !outOfStock {
            throw ValidationError("--back-order needs --out-of-stock")
        }
        if let quantity, quantity < Status.minimumQuantity {
            throw ValidationError("--quantity must be at least \(Status.minimumQuantity); for none in stock use --out-of-stock")
        }
    }

    /// The status asked for, or nil when no status option was given.
    var status: Status? {
        if outOfStock { return .outOfStock(isOnBackOrder: backOrder) }
        if let quantity { return .inStock(quantity: quantity) }
        return nil
    }
}

/// `--color C | --no-color`: changing an existing item's or draft's colour.
struct ColorChangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Set the colour.", valueName: "color"))
    var color: Color?

    @Flag(help: "Remove the colour.")
    var noColor = false

    func validate() throws {
        if color != nil && noColor { throw ValidationError("--color and --no-color cannot be used together") }
    }

    var change: ItemEdit.ColorChange? {
        if noColor { return .remove }
        return color.map { .set($0) }
    }
}

/// `--location TEXT | --no-location`: changing an existing item's or draft's location.
struct LocationChangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Set where it is kept (at most \(ItemLocation.maximumLength) characters; empty or blank removes it).", valueName: "text"))
    var location: String?

    @Flag(help: "Remove the location.")
    var noLocation = false

    func validate() throws {
        if location != nil && noLocation { throw ValidationError("--location and --no-location cannot be used together") }
        _ = try LocationRule.parse(location)
    }

    var change: ItemEdit.LocationChange? {
        if noLocation { return .remove }
        guard let location else { return nil }
        return (try? ItemLocation.parse(location)).flatMap { $0.map { .set($0) } } ?? .remove
    }
}

enum LocationRule {
    /// The location `--location` names (nil for none), or a usage error naming the option.
    static func parse(_ text: String?, flag: String = "--location") throws -> ItemLocation? {
        guard let text else { return nil }
        do {
            return try ItemLocation.parse(text)
        } catch {
            throw ValidationError("\(flag): \(error)")
        }
    }
}

/// `--name`, `--color | --no-color`, `--location | --no-location`, `--quantity | --out-of-stock [--back-order]`: a change to
/// some fields of an item or a draft, shared by `items update` and `draft edit`.
struct ItemChangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The new name.", valueName: "name"))
    var name: String?

    @OptionGroup var color: ColorChangeOptions
    @OptionGroup var status: StatusOptions
    @OptionGroup var location: LocationChangeOptions

    /// The change asked for.
    var edit: ItemEdit { ItemEdit(name: name, color: color.change, status: status.status, location: location.change) }

    func validate() throws {
        if edit.isEmpty {
            throw ValidationError("nothing to change: give --name, --color, --no-color, --quantity, --out-of-stock, --location or --no-location")
        }
        try NameRule.requireValid(name)
    }
}

enum NameRule {
    /// An item in the inventory always has a name; refuse a blank one on the command line, and
    /// one that breaks ``ItemName``'s rules.
    static func requireNotBlank(_ name: String?, flag: String = "--name") throws {
        try requireValid(name, flag: flag)
        if let name, Item.isBlank(name) {
            throw ValidationError("\(flag) must not be empty or blank (spaces, no-break and zero-width characters count as blank)")
        }
    }

    /// Refuses a name that breaks ``ItemName``'s rules (a draft's name may still be blank).
    static func requireValid(_ name: String?, flag: String = "--name") throws {
        if let name, let problem = ItemName.problem(in: name) { throw ValidationError("\(flag): \(problem)") }
    }
}
