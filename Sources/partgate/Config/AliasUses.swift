import Yams

/// Where YAML aliases are used, so that a problem found in a value reached through an alias is reported at
/// the alias (`limits: *defaults` in the route that has the problem) rather than at the anchor, which may sit
/// in another section and be fine there.
///
/// Yams composes an alias into the anchored node itself, marks included. ``relocate(_:text:)`` walks the tree
/// in document order: a node that starts before the last position seen came from an alias (an anchor always
/// precedes its aliases). Each such use gets a copy of the subtree whose marks carry the use's number next to
/// the real position, and ``resolve(_:)`` turns such a mark back into the use's position and a note with the
/// real one.
struct AliasUses {
    /// One alias in the text: its anchor's name and where the alias is.
    struct Use {
        let name: String
        let line: Int
        let column: Int
    }

    /// The uses, numbered in document order.
    private(set) var uses: [Use] = []

    /// Marks of relocated nodes have their line offset by `(use number + 1) × stride`.
    private static let stride = 1 << 32

    /// A position to report for `mark`: the alias's when the node came from one, with a note naming the real
    /// position (empty otherwise).
    func resolve(_ mark: Mark) -> (line: Int, column: Int, note: String) {
        guard mark.line >= Self.stride else { return (mark.line, mark.column, "") }
        let use = uses[mark.line / Self.stride - 1]
        let line = mark.line % Self.stride
        return (
            use.line, use.column,
            " (in the value of alias '*\(use.name)'; the value is at \(line):\(mark.column))"
        )
    }

    /// `root` with every subtree reached through an alias copied and its marks relocated, and the uses found.
    static func relocate(_ root: Node, text: String) -> (Node, AliasUses) {
        var walk = Walk(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map {
            Array($0.unicodeScalars)
        })
        let node = walk.visit(root)
        return (node, AliasUses(uses: walk.uses))
    }

    /// A `Mark` at `line`:`column`. Yams' `Mark` has no public initialiser; it is two `Int`s, which this checks.
    static func mark(line: Int, column: Int) -> Mark? {
        guard MemoryLayout<Mark>.size == MemoryLayout<(Int, Int)>.size else { return nil }
        let mark = unsafeBitCast((line, column), to: Mark.self)
        return mark.line == line && mark.column == column ? mark : nil
    }

    private struct Walk {
        /// The text's lines as Unicode scalars (libyaml counts columns in scalars, from 1).
        let lines: [[Unicode.Scalar]]
        var uses: [Use] = []
        /// The furthest position visited in document order.
        var cursor = (line: 0, column: 0)

        mutating func visit(_ node: Node) -> Node {
            guard let mark = node.mark else { return node }
            if (mark.line, mark.column) < cursor {
                let name = node.anchor?.rawValue ?? ""
                let at = find(alias: name) ?? cursor
                uses.append(Use(name: name, line: at.line, column: at.column))
                cursor = at
                return Self.relocated(node, use: uses.count)
            }
            cursor = (mark.line, mark.column)
            switch node {
            case .mapping(let mapping):
                var pairs: [(Node, Node)] = []
                for (key, value) in mapping {
                    let key = visit(key)
                    pairs.append((key, visit(value)))
                }
                return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark, mapping.anchor))
            case .sequence(let sequence):
                let nodes = sequence.map { visit($0) }
                return .sequence(Node.Sequence(nodes, sequence.tag, sequence.style, sequence.mark, sequence.anchor))
            case .scalar, .alias:
                return node
            }
        }

        /// The first `*name` at or after the cursor, as a whole alias token.
        func find(alias name: String) -> (line: Int, column: Int)? {
            guard !name.isEmpty else { return nil }
            let token = Array(("*" + name).unicodeScalars)
            var line = max(cursor.line, 1)
            var start = max(cursor.column - 1, 0)
            while line <= lines.count {
                let scalars = lines[line - 1]
                var index = start
                while index + token.count <= scalars.count {
                    if scalars[index] == "#", index == 0 || scalars[index - 1] == " " || scalars[index - 1] == "\t" {
                        break  // a comment runs to the end of the line
                    }
                    if Array(scalars[index..<index + token.count]) == token,
                        index + token.count == scalars.count || !Self.isAnchorScalar(scalars[index + token.count])
                    {
                        return (line, index + 1)
                    }
                    index += 1
                }
                line += 1
                start = 0
            }
            return nil
        }

        static func isAnchorScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
        }

        /// `node` with every mark in it moved to the relocated range of use number `use` (from 1).
        static func relocated(_ node: Node, use: Int) -> Node {
            func move(_ mark: Mark?) -> Mark? {
                guard let mark else { return nil }
                return AliasUses.mark(line: use * AliasUses.stride + mark.line % AliasUses.stride, column: mark.column)
                    ?? mark
            }
            switch node {
            case .mapping(let mapping):
                let pairs = mapping.map { (relocated($0.key, use: use), relocated($0.value, use: use)) }
                return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, move(mapping.mark), mapping.anchor))
            case .sequence(let sequence):
                let nodes = sequence.map { relocated($0, use: use) }
                return .sequence(Node.Sequence(nodes, sequence.tag, sequence.style, move(sequence.mark), sequence.anchor))
            case .scalar(var scalar):
                scalar.mark = move(scalar.mark)
                return .scalar(scalar)
            case .alias:
                return node
            }
        }
    }
}
