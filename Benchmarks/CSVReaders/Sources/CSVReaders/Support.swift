// What the linked reader files need from StockroomStore, and nothing else.
enum TransferError: Error {
    case unreadable(reason: String)
}
