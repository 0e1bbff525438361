/// A streaming RFC 4180 reader over bytes: quoted fields with doubled quotes, line breaks inside
/// quotes, LF or CRLF record ends, a leading UTF-8 byte-order mark, blank lines skipped.
///
/// It hands out one record at a time as byte ranges into a reused buffer, so reading a million
/// rows allocates nothing per row. Each record knows the line it starts on, for error messages.
/// Text is not decoded here: the caller validates UTF-8 only where it builds strings.
final class CSVReader {
    /// Broken quoting, with the line where it was found.
    struct SyntaxError: Error {
        let line: Int
        let reason: String
    }

    private let input: ByteInput
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var line = 1
    private var started = false
    /// The line the current record starts on (1 is the first line of the input).
    private(set) var recordLine = 0

    init(input: ByteInput) {
        self.input = input
        bytes.reserveCapacity(4096)
        ends.reserveCapacity(16)
    }

    /// How many fields the current record has.
    var fieldCount: Int { ends.count }

    /// Calls `body` with the bytes of field `index` of the current record (unquoted).
    @inline(__always)
    func withField<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[start..<ends[index]]))
        }
    }

    /// Reads the next record; false at the end of the input.
    ///
    /// - Throws: ``SyntaxError`` for a quote inside an unquoted field, text after a closing
    ///   quote, or a quoted field still open at the end of the input. After a syntax error
    ///   inside a line the reader resumes at the next line, so later errors are found too.
    func next() throws -> Bool {
        // Bytes that began like a byte-order mark but were not one: the first record's data.
        var carried: [UInt8] = []
        if !started {
            started = true
            carried = try skipByteOrderMark()
        }
        // The buffers are moved out of the object for the loop: appending to a local array
        // skips the exclusivity check that every access to a class's property costs.
        var bytes = self.bytes, ends = self.ends
        self.bytes = []
        self.ends = []
        defer { self.bytes = bytes; self.ends = ends }
        return try read(&bytes, &ends, carried: carried)
    }

    private func read(_ bytes: inout [UInt8], _ ends: inout [Int], carried: [UInt8]) throws -> Bool {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        // Blank lines between records carry no data.
        var pendingCR = false
        while carried.isEmpty {
            guard let byte = try input.peek() else { return false }
            if byte == UInt8(ascii: "\n") {
                input.position += 1
                line += 1
            } else if byte == UInt8(ascii: "\r") {
                input.position += 1
                if try isLF() { line += 1; continue }
                pendingCR = true // a lone CR starts the first field as data
                break
            } else {
                break
            }
        }
        recordLine = line
        var quoted = false        // inside a quoted field
        var afterQuote = false    // just read a quote inside a quoted field
        var fieldStarted = pendingCR || !carried.isEmpty  // the field has begun (so a quote now is data, not an opener)
        if pendingCR { bytes.append(UInt8(ascii: "\r")) }
        bytes.append(contentsOf: carried)
        while let byte = try input.next() {
            if quoted {
                if afterQuote {
                    afterQuote = false
                    if byte == UInt8(ascii: "\"") { bytes.append(byte); continue }
                    quoted = false
                    // The closing quote: only a separator or a record end may follow.
                    if byte == UInt8(ascii: ",") { ends.append(bytes.count); fieldStarted = false; continue }
                    if byte == UInt8(ascii: "\n") { line += 1; ends.append(bytes.count); return true }
                    if byte == UInt8(ascii: "\r"), try isLF() { line += 1; ends.append(bytes.count); return true }
                    throw try resync(SyntaxError(line: recordLine, reason: "text after a closing quote (a quote inside a quoted field is written as two quotes)"))
                }
                if byte == UInt8(ascii: "\"") { afterQuote = true; continue }
                if byte == UInt8(ascii: "\n") { line += 1 }
                bytes.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                ends.append(bytes.count)
                fieldStarted = false
            case UInt8(ascii: "\n"):
                line += 1
                ends.append(bytes.count)
                return true
            case UInt8(ascii: "\r"):
                if try isLF() {
                    line += 1
                    ends.append(bytes.count)
                    return true
                }
                bytes.append(byte)
                fieldStarted = true
            case UInt8(ascii: "\""):
                if fieldStarted {
                    throw try resync(SyntaxError(line: recordLine, reason: "a quote inside an unquoted field (quote the whole field and double the quote)"))
                }
                quoted = true
                fieldStarted = true
            default:
                bytes.append(byte)
                fieldStarted = true
            }
        }
        // The end of the input ends the last record, unless a quoted field is still open.
        if quoted && !afterQuote {
            throw SyntaxError(line: recordLine, reason: "a quoted field is not closed before the end of the input")
        }
        ends.append(bytes.count)
        return true
    }

    /// After a "\r", consumes a following "\n" and says whether there was one.
    @inline(__always)
    private func isLF() throws -> Bool {
        guard try input.peek() == UInt8(ascii: "\n") else { return false }
        input.position += 1
        return true
    }

    /// Skips the rest of the current line, so reading resumes at the next record.
    private func resync(_ error: SyntaxError) throws -> SyntaxError {
        while let byte = try input.next() {
            if byte == UInt8(ascii: "\n") { line += 1; break }
        }
        return error
    }

    /// Skips a leading UTF-8 byte-order mark. Its three bytes may arrive in separate reads (a
    /// pipe hands out what was written so far, and a chunk can end inside the mark), so they
    /// are taken one at a time. Returns the bytes taken that turned out not to be the mark.
    private func skipByteOrderMark() throws -> [UInt8] {
        var taken: [UInt8] = []
        for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
            guard try input.peek() == expected else { return taken }
            input.position += 1
            taken.append(expected)
        }
        return []
    }
}
