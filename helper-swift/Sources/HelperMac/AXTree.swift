#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import HelperCore

/// ax.snapshot (a breadth-first walk under an element) and ax.ancestors (the chain up to the app).
enum AXTree {
    private static let maxAncestors = 256
    private static let ancestorValueLength = 200

    /// A node while the walk fills in its children; `children` stays nil for a node the walk did not reach.
    private final class Node {
        let info: ElementInfo
        var children: [Node]?

        init(_ info: ElementInfo) {
            self.info = info
        }

        func frozen() -> ElementNode {
            ElementNode(info, children: children?.map { $0.frozen() })
        }
    }

    static func snapshot(_ params: SnapshotParams) async throws -> SnapshotResult {
        try await AppLanes.shared.run(handle: params.root) { root in try walk(root, params) }
    }

    /// Level by level; children are fetched in ranges no longer than the node budget left, so a list of
    /// thousands of rows costs only what is kept.
    private static func walk(_ root: AXUIElement, _ params: SnapshotParams) throws -> SnapshotResult {
        let bounds = params.includeBounds ?? false
        let defaults = ElementReader.DefaultButtons()
        let top = Node(
            try ElementReader.read(root, maxValueLength: params.maxValueLength, bounds: bounds, defaults: defaults).info
        )
        var level: [(node: Node, element: AXUIElement)] = [(top, root)]
        var nodeCount = 1
        var truncated = false
        var depth = 0
        walking: while depth < params.depth && !level.isEmpty {
            var next: [(node: Node, element: AXUIElement)] = []
            for (node, element) in level where node.info.childCount > 0 {
                var index = 0
                while index < node.info.childCount {
                    let room = params.maxNodes - nodeCount
                    if room <= 0 {
                        truncated = true
                        break walking
                    }
                    let chunk = try AX.elements(element, AXKey.children, from: index, limit: room)
                    if chunk.isEmpty { break }
                    index += chunk.count
                    if node.children == nil { node.children = [] }
                    for kid in chunk {
                        guard let read = try child(kid, params, bounds, defaults) else { continue }
                        let kept = Node(read.info)
                        node.children?.append(kept)
                        next.append((kept, kid))
                        nodeCount += 1
                    }
                }
            }
            level = next
            depth += 1
        }
        return SnapshotResult(root: top.frozen(), nodeCount: nodeCount, truncated: truncated)
    }

    /// A child worth keeping: nil when it is hidden (and hidden ones are not wanted) or went away mid-walk.
    private static func child(
        _ element: AXUIElement,
        _ params: SnapshotParams,
        _ bounds: Bool,
        _ defaults: ElementReader.DefaultButtons
    ) throws -> ElementReader.Read? {
        do {
            let read = try ElementReader.read(
                element, maxValueLength: params.maxValueLength, bounds: bounds, defaults: defaults
            )
            return read.hidden && !params.includeHidden ? nil : read
        } catch let error as RPCError where error.code == ErrorCode.elementGone {
            return nil
        }
    }

    static func ancestors(_ params: HandleParams) async throws -> AncestorsResult {
        try await AppLanes.shared.run(handle: params.id) { element in
            var chain: [ElementInfo] = []
            var current = element
            for _ in 0..<maxAncestors {
                guard let parent = try AX.read(current, AXKey.parent) else { break }
                chain.append(try ElementReader.info(parent, maxValueLength: ancestorValueLength))
                current = parent
            }
            return AncestorsResult(ancestors: chain.reversed())
        }
    }
}
#endif
