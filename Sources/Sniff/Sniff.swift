// Sniff: MIME type detection from a part's leading bytes (WHATWG MIME Sniffing plus upload-policy types),
// and the file-extension <-> MIME type table used for mismatch checks.
//
// Pure Swift: imports neither Foundation nor libevent/OpenSSL (nor any other C module).
//
// Entry points:
// - `MIMESniffer.sniff(_:complete:)` classifies the first `sniffWindowSize` bytes of a resource.
// - `SniffWindow` collects those bytes from successive body spans and never holds more.
// - `FileExtensions` maps extensions to MIME types and decides whether a filename's extension fits the
//   sniffed type.

/// The largest number of leading bytes any sniffing rule looks at (the WHATWG "resource header" size).
public let sniffWindowSize = 1445
