// What the linked reader files need from StockroomStore, and nothing else.
enum TransferError: Error {
    case unreadable(reason: String)
}

struct RowProblem: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
