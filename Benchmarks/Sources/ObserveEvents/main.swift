// W12 (c): the library's observation as a program, for Benchmarks/Observation/latency.py.
// Writes the item id of each event `HistoryEvents` yields after a position, one line each,
// with write(2) the moment the sequence yields it: what an app's `for try await` loop sees.
//
//     ObserveEvents DATABASE AFTER-POSITION
import Glibc
import StockroomStore

/// Writes `text` to a file descriptor at once, unbuffered.
func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let after = Int64(arguments[2]) else {
    write("usage: ObserveEvents DATABASE AFTER-POSITION\n", to: 2)
    exit(64)
}
for try await event in HistoryEvents(location: DatabaseLocation(arguments[1]), after: after) {
    write(event.recorded.itemID.uuidString.lowercased() + "\n", to: 1)
}
