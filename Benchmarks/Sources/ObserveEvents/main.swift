// W12 (c): the library's observation as a program, for Benchmarks/Observation/latency.py.
// Prints the item id of each event `HistoryEvents` yields after a position, one line each,
// flushed the moment the sequence yields it: what an app's `for try await` loop sees.
//
//     ObserveEvents DATABASE AFTER-POSITION
import Glibc
import StockroomStore

let arguments = CommandLine.arguments
guard arguments.count == 3, let after = Int64(arguments[2]) else {
    fputs("usage: ObserveEvents DATABASE AFTER-POSITION\n", stderr)
    exit(64)
}
for try await event in HistoryEvents(location: DatabaseLocation(arguments[1]), after: after) {
    print(event.recorded.itemID.uuidString.lowercased())
    fflush(stdout)
}
