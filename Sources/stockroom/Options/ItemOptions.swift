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

// The options of the optional texts (``OptionalTextField``) are declared here, one property
// each, because ArgumentParser reads its options from stored properties; every command takes
// them through these two groups, so a new optional text is spelled here and nowhere else in
// the CLI (the switches below are exhaustive).

/// `--location TEXT` (one option per optional text): the optional texts of a new item or draft.
struct OptionalTextOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where it is kept (at most \(OptionalTextField.location.maximumLength) characters).", valueName: "text"))
    var location: String?

    /// The text given for `field`, or nil when its option was left out.
    func given(_ field: OptionalTextField) -> String? {
        switch field {
        case .location: location
        }
    }

    func validate() throws {
        _ = try texts()
    }

    /// Each optional text by its rule, by ``OptionalTextField``'s raw value (nil when left out,
    /// empty or blank), or a usage error naming the option.
    func texts() throws -> [String?] {
        try OptionalTextField.allCases.map { try OptionalTextRule.parse(given($0), $0) }
    }
}

/// `--location TEXT | --no-location` (the pair of each optional text): changing an existing
/// item's or draft's optional texts.
struct OptionalTextChangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Set where it is kept (at most \(OptionalTextField.location.maximumLength) characters; empty or blank removes it).", valueName: "text"))
    var location: String?

    @Flag(help: "Remove the location.")
    var noLocation = false

    /// The text given for `field` and whether its removal was asked.
    func given(_ field: OptionalTextField) -> (text: String?, remove: Bool) {
        switch field {
        case .location: (location, noLocation)
        }
    }

    func validate() throws {
        for field in OptionalTextField.allCases {
            let (text, remove) = given(field)
            if text != nil && remove {
                throw ValidationError("\(OptionalTextRule.flag(field)) and \(OptionalTextRule.removalFlag(field)) cannot be used together")
            }
            _ = try OptionalTextRule.parse(text, field)
        }
    }

    /// `edit` with the changes asked for.
    func apply(to edit: inout ItemEdit) {
        for field in OptionalTextField.allCases {
            let (text, remove) = given(field)
            if remove {
                field.set(nil, in: &edit)
            } else if let text {
                field.set((try? field.parse(text)) ?? nil, in: &edit)
            }
        }
    }
}

enum OptionalTextRule {
    /// `field`'s option, as ArgumentParser names it from the property (`--location`).
    static func flag(_ field: OptionalTextField) -> String {
        "--" + field.field.column.split(separator: "_").joined(separator: "-")
    }

    /// The option removing `field` (`--no-location`).
    static func removalFlag(_ field: OptionalTextField) -> String {
        "--no-" + flag(field).dropFirst(2)
    }

    /// The text `field`'s option gives (nil for none), or a usage error naming the option.
    static func parse(_ text: String?, _ field: OptionalTextField) throws -> String? {
        guard let text else { return nil }
        do {
            return try field.parse(text)
        } catch {
            throw ValidationError("\(flag(field)): \(error)")
        }
    }
}

/// `--name`, `--color | --no-color`, each optional text's pair (`--location | --no-location`),
/// `--quantity | --out-of-stock [--back-order]`: a change to some fields of an item or a draft,
/// shared by `items update` and `draft edit`.
struct ItemChangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The new name.", valueName: "name"))
    var name: String?

    @OptionGroup var color: ColorChangeOptions
    @OptionGroup var status: StatusOptions
    @OptionGroup var texts: OptionalTextChangeOptions

    /// The change asked for.
    var edit: ItemEdit {
        var edit = ItemEdit(name: name, color: color.change, status: status.status)
        texts.apply(to: &edit)
        return edit
    }

    func validate() throws {
        if edit.isEmpty {
            let textFlags = OptionalTextField.allCases.flatMap { [OptionalTextRule.flag($0), OptionalTextRule.removalFlag($0)] }
            let flags = ["--name", "--color", "--no-color", "--quantity", "--out-of-stock"] + textFlags
            throw ValidationError("nothing to change: give \(flags.dropLast().joined(separator: ", ")) or \(flags.last!)")
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
