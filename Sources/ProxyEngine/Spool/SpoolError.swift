#if canImport(Glibc)
import Glibc
#endif

/// A spool could not create, write or read its temp file (the request is answered 500; the reason is logged).
struct SpoolError: Error, Equatable, CustomStringConvertible {
    enum Operation: String {
        case create, write, read, send
    }

    var operation: Operation
    /// `errno` of the failed call (0 when libevent gave none).
    var code: Int32

    init(_ operation: Operation, _ code: Int32) {
        self.operation = operation
        self.code = code
    }

    var description: String {
        "spool \(operation.rawValue) failed" + (code == 0 ? "" : ": " + String(cString: strerror(code)))
    }
}
