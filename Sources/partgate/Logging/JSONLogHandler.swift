import Foundation
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
        StandardStream.out.write(Self.line(level: event.level, message: event.message.description, metadata: merged))
    }

    /// One log line (with its newline): `ts`, `level`, `msg`, then the metadata sorted by key.
    static func line(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var object = JSONObjectWriter()
        object.add("ts", LogTimestamp.now())
        object.add("level", level.rawValue)
        object.add("msg", message)
        for key in metadata.keys.sorted() {
            add(key, metadata[key]!, to: &object)
        }
        return object.finished(appending: "\n")
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
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(unsafeUninitializedCapacity: 24) { out in
            var at = 0
            func put(_ value: Int, _ width: Int) {
                var rest = value
                for index in stride(from: at + width - 1, through: at, by: -1) {
                    out[index] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                    rest /= 10
                }
                at += width
            }
            func put(_ byte: Character) {
                out[at] = byte.asciiValue!
                at += 1
            }
            put(Int(parts.tm_year) + 1900, 4); put("-"); put(Int(parts.tm_mon) + 1, 2); put("-")
            put(Int(parts.tm_mday), 2); put("T"); put(Int(parts.tm_hour), 2); put(":"); put(Int(parts.tm_min), 2)
            put(":"); put(Int(parts.tm_sec), 2); put("."); put(Int(now.tv_nsec / 1_000_000), 3); put("Z")
            return at
        }
    }
}
