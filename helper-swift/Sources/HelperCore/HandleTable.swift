import Foundation

/// Opaque, stable handles for platform elements: the same element (by the table's equality) always gets the same
/// handle while the table remembers it. Handles read "<pid>.<serial>", so that they never repeat within a run.
public final class HandleTable<Element>: @unchecked Sendable {
    private struct Entry {
        let handle: String
        let element: Element
        let pid: Int32
    }

    private let equal: (Element, Element) -> Bool
    private let hash: (Element) -> Int
    private let pidOf: (Element) -> Int32
    private let lock = NSLock()
    private var byHandle: [String: Entry] = [:]
    private var byHash: [Int: [Entry]] = [:]
    private var serial = 0

    /// `equal` and `hash` define identity (CFEqual and CFHash for AXUIElement); `pid` names the element's app.
    public init(
        equal: @escaping (Element, Element) -> Bool,
        hash: @escaping (Element) -> Int,
        pid: @escaping (Element) -> Int32
    ) {
        self.equal = equal
        self.hash = hash
        self.pidOf = pid
    }

    public func handle(for element: Element) -> String {
        let key = hash(element)
        return lock.withLock { () -> String in
            if let known = byHash[key]?.first(where: { equal($0.element, element) }) {
                return known.handle
            }
            serial += 1
            let pid = pidOf(element)
            let entry = Entry(handle: "\(pid).\(serial)", element: element, pid: pid)
            byHandle[entry.handle] = entry
            byHash[key, default: []].append(entry)
            return entry.handle
        }
    }

    /// The element a handle names; an unknown or forgotten handle is an `elementGone` error.
    public func element(for handle: String) throws -> Element {
        guard let entry = lock.withLock({ byHandle[handle] }) else {
            throw RPCError(
                ErrorCode.elementGone,
                "no element has the handle \(handle)",
                hint: "the element or its app went away; take a new snapshot"
            )
        }
        return entry.element
    }

    /// Forgets one element (it was destroyed).
    public func forget(_ handle: String) {
        lock.withLock {
            guard let entry = byHandle.removeValue(forKey: handle) else { return }
            let key = hash(entry.element)
            byHash[key]?.removeAll { $0.handle == handle }
            if byHash[key]?.isEmpty == true { byHash[key] = nil }
        }
    }

    /// Forgets every element of an app (it quit).
    public func forget(pid: Int32) {
        lock.withLock {
            byHandle = byHandle.filter { $0.value.pid != pid }
            byHash = byHash.compactMapValues { entries in
                let kept = entries.filter { $0.pid != pid }
                return kept.isEmpty ? nil : kept
            }
        }
    }

    /// How many elements the table remembers.
    public var count: Int {
        lock.withLock { byHandle.count }
    }
}
