import Foundation
import HTTP1
import Logging
import ProxyEngine

/// A swift-log handler that writes one JSON object per line to standard output: `ts`, `level`, `msg`, then
/// the metadata (sorted by key). Integers and booleans given as metadata stay JSON numbers and booleans.
/// One `write` per line, so lines from several worker threads never interleave.
struct JSONLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged: Logger.Metadata
        if metadata.isEmpty, metadataProvider == nil {
            merged = event.metadata ?? [:]  // the usual case: no merge, no copy
        } else {
            merged = metadata
            if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
            if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        }
        let line = Self.object(level: event.level, message: event.message.description, metadata: merged)
            .finishedBytes(appending: "\n")
        line.withUnsafeBufferPointer { StandardStream.out.write($0) }
    }

    /// One log line (with its newline): `ts`, `level`, `msg`, then the metadata sorted by key.
    static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        object(level: level, message: message, metadata: metadata).finished(appending: "\n")
    }

    /// The access line ``log(event:)`` writes for the same metadata (with its newline): `ts`, `level` info, `msg`
    /// access, then `method`, `route`, `status`, `target`.
    static func accessLineBytes(method: String, target: String, status: Int, route: String) -> [UInt8] {
        var bytes: [UInt8] = []
        appendAccessLine(method: method, target: target, status: status, route: route, into: &bytes)
        return bytes
    }

    /// Appends ``accessLineBytes(method:target:status:route:)``: the fixed parts are literals copied whole, the
    /// values escaped by ``JSONObjectWriter/appendString(_:to:)``.
    static func appendAccessLine(method: String, target: String, status: Int, route: String, into bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + 96 + method.utf8.count + target.utf8.count + route.utf8.count)
        func literal(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
        literal("{\"ts\":\"")
        LogTimestamp.write(into: &bytes)
        literal("\",\"level\":\"info\",\"msg\":\"access\",\"method\":")
        JSONObjectWriter.appendString(method, to: &bytes)
        literal(",\"route\":")
        JSONObjectWriter.appendString(route, to: &bytes)
        literal(",\"status\":")
        var digits = String(status)
        digits.withUTF8 { bytes.append(contentsOf: $0) }
        literal(",\"target\":")
        JSONObjectWriter.appendString(target, to: &bytes)
        literal("}\n")
    }

    private static func object(level: Logger.Level, message: String, metadata: Logger.Metadata) -> JSONObjectWriter {
        var object = JSONObjectWriter()
        object.add("ts", unescaped: LogTimestamp.write(into:))
        object.add("level", level.rawValue)
        object.add("msg", message)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            add(key, value, to: &object)
        }
        return object
    }

    static func add(_ key: String, _ value: Logger.Metadata.Value, to object: inout JSONObjectWriter) {
        switch value {
        case .string(let text):
            object.add(key, text)
        case .stringConvertible(let convertible):
            if let number = convertible as? Int {
                object.add(key, number)
            } else if let number = convertible as? Int64 {
                object.add(key, number)
            } else if let flag = convertible as? Bool {
                object.add(key, flag)
            } else {
                object.add(key, convertible.description)
            }
        case .array(let values):
            object.add(key, strings: values.map(\.description))
        case .dictionary(let values):
            var nested = JSONObjectWriter()
            for nestedKey in values.keys.sorted() { add(nestedKey, values[nestedKey]!, to: &nested) }
            object.add(key, object: nested)
        }
    }
}

/// Plain text for a terminal: `ts level msg key=value …`.
struct TextLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let fields = merged.keys.sorted().map { "\($0)=\(merged[$0]!)" }.joined(separator: " ")
        StandardStream.out.write("\(LogTimestamp.now()) \(event.level.rawValue) \(event.message) \(fields)\n")
    }
}

/// UTC time as `2026-11-21T21:03:25.123Z`, formatted by hand (a DateFormatter's ICU calls cost more than
/// proxying a small request).
enum LogTimestamp {
    static func now() -> String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the current time's 24 ASCII bytes.
    static func write(into bytes: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        write(seconds: Int64(now.tv_sec), milliseconds: Int(now.tv_nsec / 1_000_000), into: &bytes)
    }

    /// Appends the 24 ASCII bytes of an instant given in seconds since 1970 (UTC), computed with the civil
    /// calendar arithmetic of Howard Hinnant's `civil_from_days` rather than `gmtime_r` (which takes glibc's
    /// time-zone lock on every call, shared by all worker threads).
    static func write(seconds: Int64, milliseconds: Int, into bytes: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = HTTPDate.civil(daysSinceEpoch: days)
        // Made in a 24-byte stack buffer and appended in one copy: 24 appends to the array cost three times
        // the arithmetic above.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { out in
            var index = 0
            func put(_ byte: UInt8) {
                out[index] = byte
                index += 1
            }
            func two(_ value: Int) {
                put(UInt8(truncatingIfNeeded: 0x30 + value / 10 % 10))
                put(UInt8(truncatingIfNeeded: 0x30 + value % 10))
            }
            two(year / 100)
            two(year)
            put(UInt8(ascii: "-"))
            two(month)
            put(UInt8(ascii: "-"))
            two(day)
            put(UInt8(ascii: "T"))
            two(secondOfDay / 3600)
            put(UInt8(ascii: ":"))
            two(secondOfDay / 60 % 60)
            put(UInt8(ascii: ":"))
            two(secondOfDay % 60)
            put(UInt8(ascii: "."))
            put(UInt8(truncatingIfNeeded: 0x30 + milliseconds / 100 % 10))
            two(milliseconds)
            put(UInt8(ascii: "Z"))
            precondition(index == 24, "a timestamp is 24 bytes")
            bytes.append(contentsOf: UnsafeBufferPointer(out))
        }
    }
}
