/// One part of a test form, and the multipart/form-data body a browser would send for a list of them.
struct FormPart: Equatable {
    var name: String
    var filename: String?
    var type: String?
    var data: [UInt8]

    init(_ name: String, filename: String? = nil, type: String? = nil, _ data: [UInt8]) {
        self.name = name
        self.filename = filename
        self.type = type
        self.data = data
    }

    init(_ name: String, _ text: String) {
        self.init(name, Array(text.utf8))
    }

    /// The body: each part with Content-Disposition (and Content-Type when set), then the close delimiter.
    static func body(_ parts: [FormPart], boundary: String) -> [UInt8] {
        var out: [UInt8] = []
        for part in parts {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"".utf8)
            if let filename = part.filename { out += Array("; filename=\"\(filename)\"".utf8) }
            out += Array("\r\n".utf8)
            if let type = part.type { out += Array("Content-Type: \(type)\r\n".utf8) }
            out += Array("\r\n".utf8) + part.data + Array("\r\n".utf8)
        }
        return out + Array("--\(boundary)--\r\n".utf8)
    }
}
