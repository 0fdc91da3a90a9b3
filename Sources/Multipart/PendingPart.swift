/// What the parser has learned about the current part from the header lines read so far.
struct PendingPart: Sendable {
    /// Set by the Content-Disposition line.
    var name: String?
    var filename: String?
    var hasDisposition = false
    var contentType: String?
    var hasContentType = false
    var hasTransferEncoding = false
    /// Headers the parser does not interpret, in order.
    var others: [PartHeader] = []
}
