// Multipart: the multipart/form-data core of partgate.
//
// Request Content-Type parsing, the streaming push parser, Content-Disposition parsing, the canonical
// encoder with its CSPRNG boundary, and a form builder for Swift callers.
// The parser and encoder import neither libevent nor OpenSSL, nor Foundation.
