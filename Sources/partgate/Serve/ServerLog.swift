import Foundation
import ProxyEngine

/// JSON lines on standard output (one object per event), the format DESIGN.md asks for; swift-log's
/// handler replaces this in issue 5.
struct ServerLog: Sendable {
    /// Writes one JSON object line with `level`, `msg` and the given string members.
    func write(_ level: String, _ message: String, _ fields: [(String, String)] = []) {
        var object = JSONObjectWriter()
        object.add("ts", ISO8601DateFormatter().string(from: Date()))
        object.add("level", level)
        object.add("msg", message)
        for (key, value) in fields { object.add(key, value) }
        StandardStream.out.write(object.finished + "\n")
    }

    /// Engine events routed to the log.
    var events: EngineEvents {
        EngineEvents(
            onLog: { message in self.write("warning", message) },
            onAccess: { method, target, status, route in
                self.write("info", "access", [("method", method), ("target", target), ("status", String(status)), ("route", route)])
            },
            onProblem: { status, name, peer in
                self.write("info", "refused", [("status", String(status)), ("flag", name), ("client", peer)])
            })
    }
}
