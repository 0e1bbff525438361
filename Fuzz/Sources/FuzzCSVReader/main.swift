import Foundation
import FuzzSupport
@testable import StockroomStore
import TextFormats

// The CSV reader (Sources/StockroomStore/Transfer/CSVReader.swift) on any bytes.
// Properties, beyond not crashing:
// - the records, their start lines and the syntax errors do not depend on the chunk size the
//   input is read in (a quote or a CRLF split across two reads reads the same);
// - start lines never go backwards and never pass the input's last line;
// - reading always ends (each call consumes input);
// - a file read without error, written back with TextFormats' CSV quoting, reads back as the
//   same fields.

/// What reading gave: each record's start line and fields, or the line of a syntax error.
enum Outcome: Equatable {
    case record(line: Int, fields: [[UInt8]])
    case syntaxError(line: Int)
}

func outcomes(_ input: [UInt8], chunkSize: Int) -> [Outcome] {
    let descriptor = readableDescriptor(input)
    defer { close(descriptor) }
    let reader = CSVReader(input: ByteInput(descriptor: descriptor, chunkSize: chunkSize))
    var found: [Outcome] = []
    var calls = 0
    while true {
        calls += 1
        // A record or an error consumes at least one byte, so there are at most count+1 calls.
        require(calls <= input.count + 2, "the reader does not reach the end of \(input.count) bytes")
        do {
            guard try reader.next() else { break }
            require(reader.fieldCount >= 1, "a record with no fields")
            let fields = (0..<reader.fieldCount).map { index in reader.withField(index) { Array($0) } }
            found.append(.record(line: reader.recordLine, fields: fields))
        } catch let error as CSVReader.SyntaxError {
            found.append(.syntaxError(line: error.line))
        } catch {
            require(false, "unexpected error \(error)")
        }
    }
    return found
}

/// A record written back: TextFormats' quoting when every field is text, else every field
/// quoted by hand (the reader hands out bytes; invalid UTF-8 has no `String`).
func written(_ fields: [[UInt8]]) -> [UInt8] {
    // A record of one empty field: CSVText writes it as an empty line, which every reader
    // skips as blank, so it is written quoted here (export never writes a one-column record).
    if fields == [[]] { return Array("\"\"\r\n".utf8) }
    let texts = fields.compactMap { String(validating: $0, as: UTF8.self) }
    if texts.count == fields.count { return Array(CSVText.record(texts).utf8) }
    var output: [UInt8] = []
    for (index, field) in fields.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        output.append(UInt8(ascii: "\""))
        for byte in field {
            if byte == UInt8(ascii: "\"") { output.append(byte) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }
    return output + [0x0D, 0x0A]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSVReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size <= pipeInputLimit else { return -1 }
    let input = bytes(data, size)
    let whole = outcomes(input, chunkSize: max(1, input.count))
    for chunkSize in [1, 3] {
        let chunked = outcomes(input, chunkSize: chunkSize)
        require(chunked == whole, "chunks of \(chunkSize) read \(chunked), whole input read \(whole)")
    }
    let lastLine = 1 + input.lazy.filter { $0 == 0x0A }.count
    var previous = 1
    for outcome in whole {
        let line: Int
        switch outcome {
        case .record(let start, _): line = start
        case .syntaxError(let start): line = start
        }
        require(line >= previous && line <= lastLine, "start line \(line) after \(previous), input has \(lastLine) lines")
        previous = line
    }
    let records = whole.compactMap { outcome -> [[UInt8]]? in
        if case .record(_, let fields) = outcome { return fields }
        return nil
    }
    guard records.count == whole.count else { return 0 }
    let rewritten = records.flatMap(written)
    let reread = outcomes(rewritten, chunkSize: 7).map { outcome -> [[UInt8]]? in
        if case .record(_, let fields) = outcome { return fields }
        return nil
    }
    require(reread == records, "written back as \(Array(rewritten)) reads \(reread), not \(records)")
    return 0
}

runFuzzer(fuzzCSVReader)
