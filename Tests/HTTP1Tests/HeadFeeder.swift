@testable import HTTP1

/// The part of the two head parsers the driver needs.
protocol HeadFeeder {
    associatedtype Head: Hashable & Sendable
    mutating func feed(_ span: UnsafeRawBufferPointer) -> HeadParseResult<Head>
    func finish() -> HTTP1Error?
}

extension RequestHeadParser: HeadFeeder {}
extension ResponseHeadParser: HeadFeeder {}
