import FoundationEssentials
import Glibc

/// A file descriptor read in large chunks, for readers that walk the bytes one at a time.
///
/// Reading is by `read(2)` into one reused buffer, so memory stays flat however large the input,
/// and a pipe (`stockroom import -`) works the same as a file.
final class ByteInput {
    /// The descriptor read from; not closed by this object.
    let descriptor: Int32
    /// The chunk currently held, and how far the reader has got in it.
    private(set) var buffer: UnsafeMutableBufferPointer<UInt8>
    var position = 0
    private(set) var count = 0
    /// Bytes read from the descriptor so far (for progress: compare with the file's size).
    private(set) var bytesRead = 0

    init(descriptor: Int32, chunkSize: Int = 1 << 20) {
        self.descriptor = descriptor
        buffer = .allocate(capacity: chunkSize)
    }

    deinit { buffer.deallocate() }

    /// Reads the next chunk; false at the end of the input.
    func refill() throws(TransferError) -> Bool {
        while true {
            let got = read(descriptor, buffer.baseAddress, buffer.count)
            if got > 0 {
                position = 0
                count = got
                bytesRead += got
                return true
            }
            if got == 0 { position = 0; count = 0; return false }
            if errno == EINTR { continue }
            throw TransferError.unreadable(reason: String(cString: strerror(errno)))
        }
    }

    /// The next byte, or nil at the end of the input.
    @inline(__always)
    func next() throws(TransferError) -> UInt8? {
        if position == count {
            guard try refill() else { return nil }
        }
        let byte = buffer[position]
        position &+= 1
        return byte
    }

    /// The next byte without consuming it, or nil at the end of the input.
    @inline(__always)
    func peek() throws(TransferError) -> UInt8? {
        if position == count {
            guard try refill() else { return nil }
        }
        return buffer[position]
    }
}
