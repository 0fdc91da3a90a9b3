// Sniff: MIME type detection from a part's leading bytes (WHATWG MIME Sniffing plus upload-policy types),
// and the file-extension <-> MIME type table used for mismatch checks.
//
// Pure Swift: imports neither Foundation nor libevent/OpenSSL.

/// The largest number of leading bytes any sniffing rule looks at (the WHATWG "resource header" size).
public let sniffWindowSize = 1445
