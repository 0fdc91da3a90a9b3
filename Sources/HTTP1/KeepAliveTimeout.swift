/// The `timeout` parameter of a response's `Keep-Alive` field (RFC 2068 §19.7.1.1, still sent by Apache httpd,
/// Node.js, Gunicorn and others): how many seconds the server keeps an idle connection open. A proxy that keeps
/// the connection longer may send the next request as the server closes it.
public enum KeepAliveTimeout {
    /// The seconds of the first well-formed `timeout=N` (`timeout="N"` too, any case) in `values` (the field's
    /// lines), or nil. Other parameters (`max=100`) and malformed ones are skipped.
    public static func seconds(in values: [String]) -> Int? {
        seconds(inLines: values.lazy.map { Substring($0) })
    }

    /// ``seconds(in:)`` over the value bytes of a head's field lines.
    static func seconds(in values: FieldValues) -> Int? {
        seconds(inLines: values.lazy.map { Substring(decoding: $0, as: UTF8.self) })
    }

    private static func seconds<Lines: Sequence<Substring>>(inLines values: Lines) -> Int? {
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1)
                guard parts.count == 2,
                    parts[0].trimmingSpaces().lowercased() == "timeout"
                else { continue }
                var number = parts[1].trimmingSpaces()
                if number.count >= 2, number.first == "\"", number.last == "\"" {
                    number = number.dropFirst().dropLast()
                }
                guard !number.isEmpty, number.count <= 9, number.allSatisfy({ $0.isASCII && $0.isNumber }),
                    let seconds = Int(number)
                else { continue }
                return seconds
            }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
