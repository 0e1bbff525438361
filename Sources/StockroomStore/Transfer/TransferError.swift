import FoundationEssentials
import Glibc

/// Why an import or export could not run at all (as opposed to bad rows, which are an
/// ``ImportRejection``).
public enum TransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input could not be read.
    case unreadable(reason: String)
    /// The output could not be written.
    case unwritable(reason: String)

    /// One line for the user.
    public var description: String {
        switch self {
        case .unreadable(let reason): "cannot read the input: \(reason)"
        case .unwritable(let reason): "cannot write the output: \(reason)"
        }
    }
}

/// What is wrong with one row of an import file.
public struct RowProblem: Error, Sendable, Equatable {
    /// Why the row cannot be imported, for the user.
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// An import refused because of its rows: nothing was imported.
public struct ImportRejection: Error, Sendable, CustomStringConvertible {
    /// A bad row: the line it starts on (1-based) and why.
    public struct Problem: Sendable, Equatable {
        /// The line of the input the row starts on, from 1.
        public let line: Int
        /// Why the row was refused, as a sentence.
        public let reason: String
    }

    /// How many problems are kept and shown; the rest are only counted.
    public static let shownLimit = 20

    /// The first ``shownLimit`` problems, in file order.
    public let problems: [Problem]
    /// How many problems there were in all.
    public let total: Int

    /// The first line, for the `error:` line.
    public var description: String {
        "\(total) bad row\(total == 1 ? "" : "s"); nothing was imported"
    }

    /// Every line of the report: the summary, each shown problem as `LINE: reason`, and how many
    /// more there were.
    public var reportLines: [String] {
        var lines = [description]
        lines += problems.map { "\($0.line): \($0.reason)" }
        if total > problems.count { lines.append("… and \(total - problems.count) more") }
        return lines
    }
}

/// Collects row problems, keeping the first few.
struct ProblemList {
    private(set) var shown: [ImportRejection.Problem] = []
    private(set) var total = 0

    var isEmpty: Bool { total == 0 }

    mutating func add(line: Int, _ reason: @autoclosure () -> String) {
        total += 1
        if shown.count < ImportRejection.shownLimit { shown.append(.init(line: line, reason: reason())) }
    }

    var rejection: ImportRejection { ImportRejection(problems: shown, total: total) }

    /// Adds problems found apart from these (other lines), keeping file order: `others` are the
    /// first of `otherTotal` problems, in line order.
    mutating func merge(_ others: [ImportRejection.Problem], total otherTotal: Int) {
        var merged: [ImportRejection.Problem] = []
        var mine = shown[...], theirs = others[...]
        while merged.count < ImportRejection.shownLimit, let next = mine.first ?? theirs.first {
            if let other = theirs.first, other.line < next.line {
                merged.append(theirs.removeFirst())
            } else if mine.first != nil {
                merged.append(mine.removeFirst())
            } else {
                merged.append(theirs.removeFirst())
            }
        }
        shown = merged
        total += otherTotal
    }
}
