import CSV
import Foundation
import SwiftCSV

// Reads every record of the file and touches every field, three times per reader; prints the
// best wall time, the records and field bytes seen (to prove each read it all) and peak memory.
let path = CommandLine.arguments[1]
let which = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "all"

func time(_ label: String, _ body: () throws -> (Int, Int)) rethrows {
    var best = Double.infinity
    var seen = (0, 0)
    for _ in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        seen = try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    print("\(label): best of 3 \(String(format: "%.2f", best)) s, \(seen.0) records, \(seen.1) field bytes, peak RSS so far \(usage.ru_maxrss / 1024) MB")
}

if which == "all" || which == "stockroom" {
    try time("Stockroom CSVReader (bytes, streaming)") {
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let reader = StockroomCSVReader(input: ByteInput(descriptor: descriptor))
        var records = 0, bytes = 0
        while try reader.next() {
            records += 1
            for index in 0..<reader.fieldCount { bytes += reader.withField(index) { $0.count } }
        }
        return (records, bytes)
    }
}

if which == "all" || which == "csvswift" {
    try time("yaslab/CSV.swift 2.5.2 (InputStream, streaming)") {
        let stream = InputStream(fileAtPath: path)!
        let reader = try CSV(stream: stream)
        var records = 0, bytes = 0
        while let row = reader.next() {
            records += 1
            for field in row { bytes += field.utf8.count }
        }
        return (records, bytes)
    }
}

if which == "all" || which == "swiftcsv" {
    try time("swiftcsv/SwiftCSV 0.10.0 (whole file as String, enumerateAsArray)") {
        let csv = try SwiftCSV.CSV<Enumerated>(url: URL(fileURLWithPath: path), delimiter: .comma, loadColumns: false)
        var records = 0, bytes = 0
        try csv.enumerateAsArray(startAt: 0, rowLimit: nil) { row in
            records += 1
            for field in row { bytes += field.utf8.count }
        }
        return (records, bytes)
    }
}

// JSON Lines: Foundation's JSONSerialization per line against the strict byte scanner walking
// the same objects (every string unescaped, every number read).
func walk(_ scanner: inout JSONScanner, _ scratch: inout [UInt8]) throws -> Int {
    switch scanner.peek() {
    case UInt8(ascii: "{"):
        scanner.index += 1
        var total = 0
        if scanner.peek() == UInt8(ascii: "}") { scanner.index += 1; return 0 }
        repeat {
            try scanner.string(into: &scratch)
            total += scratch.count
            try scanner.expect(UInt8(ascii: ":"))
            total += try walk(&scanner, &scratch)
        } while try scanner.more(before: UInt8(ascii: "}"))
        return total
    case UInt8(ascii: "\""):
        try scanner.string(into: &scratch)
        return scratch.count
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
        return try scanner.bool() ? 1 : 0
    case UInt8(ascii: "n"):
        _ = scanner.null()
        return 0
    default:
        return try scanner.integer() & 1
    }
}

if which == "jsonl" {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let lines = data.split(separator: UInt8(ascii: "\n"))
    try time("JSONL: Stockroom JSONScanner (bytes)") {
        var total = 0
        var scratch: [UInt8] = []
        for line in lines {
            try line.withUnsafeBytes { raw in
                var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
                total += try walk(&scanner, &scratch)
            }
        }
        return (lines.count, total)
    }
    try time("JSONL: Foundation JSONSerialization") {
        var total = 0
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
            total += object.count
        }
        return (lines.count, total)
    }
}
