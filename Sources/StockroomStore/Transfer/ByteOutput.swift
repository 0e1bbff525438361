import FoundationEssentials
import Glibc
import TextFormats

/// A buffered writer to a file descriptor, for writers that produce bytes one field at a time.
final class ByteOutput: ByteSink {
    private let descriptor: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    init(descriptor: Int32, capacity: Int = 1 << 18) {
        self.descriptor = descriptor
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    @inline(__always)
    func append(_ byte: UInt8) throws {
        if count == capacity { try flush() }
        buffer[count] = byte
        count &+= 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity {
            try flush()
            if bytes.count > capacity { return try writeAll(UnsafeRawBufferPointer(bytes)) }
        }
        (buffer + count).update(from: base, count: bytes.count)
        count &+= bytes.count
    }

    @inline(__always)
    func append(_ text: StaticString) throws {
        try append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { buffer in try append(buffer) }
    }

    /// A whole number in decimal.
    @inline(__always)
    func append(_ value: Int) throws {
        if count + 20 > capacity { try flush() }
        var magnitude = value.magnitude
        if value < 0 { buffer[count] = UInt8(ascii: "-"); count &+= 1 }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var length = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[length] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
                length += 1
            } while magnitude > 0
            for index in 0..<length { buffer[count + index] = raw[length - 1 - index] }
        }
        count &+= length
    }

    /// Writes out everything buffered.
    func flush() throws {
        guard count > 0 else { return }
        try writeAll(UnsafeRawBufferPointer(start: buffer, count: count))
        count = 0
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw TransferError.unwritable(reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}
