import CSQLite

/// Keeps freed memory at the top of the heap for the next allocation instead of giving it back
/// to the kernel at once: set once per process, by its first connection.
///
/// SQLite allocates and frees scratch memory as rows go into a B-tree. With glibc's default
/// padding, each free at the top of the heap shrank it (`brk`) and the next allocation grew it
/// again, with fresh page faults: two system calls a row, 70% of `stockroom copy` into a file
/// (BENCHMARKS.md, "The heap given back and taken again"). A megabyte of padding costs a process
/// at most that much memory, and only once it has used it.
enum HeapPadding {
    static let bytes: Int32 = 1 << 20

    /// Evaluated once, thread-safely, on first use.
    static let applied: Void = { _ = csqlite_set_heap_top_padding(bytes) }()
}
