import Foundation

/// input.personFirst's bookkeeping, the same wherever the helper hears the person's own input: whether it is on,
/// how long before an input operation the person's input still counts, and the person's latest input. The
/// platform's listener calls `heard`; input operations call `checkBefore` as they start and `checkDuring` between
/// their strokes (never between a press and its release).
public final class PersonAtTheDesk: @unchecked Sendable {
    public enum Kind: String, Sendable {
        case key = "keyboard"
        case button = "mouse buttons"
        case motion = "pointer"
    }

    private let lock = NSLock()
    private var on = false
    private var quietMs = 500
    private var latest: (at: Date, kind: Kind, device: String)?

    public init() {}

    public func configure(on: Bool, quietMs: Int) {
        lock.withLock {
            self.on = on
            self.quietMs = quietMs
        }
    }

    public func heard(_ kind: Kind, device: String, at: Date = Date()) {
        lock.withLock { latest = (at, kind, device) }
    }

    /// Throws PersonActive when the person's input came in the quiet time before `start`: nothing was sent.
    public func checkBefore(_ start: Date = Date()) throws {
        let quiet = lock.withLock { Double(quietMs) / 1000 }
        try check(since: start.addingTimeInterval(-quiet), now: start, when: "just before this input would have begun, so none was sent")
    }

    /// Throws PersonActive when the person's input came since `start`: the rest of the operation is not sent.
    public func checkDuring(since start: Date, now: Date = Date()) throws {
        try check(since: start, now: now, when: "while this input ran, so the rest was not sent")
    }

    private func check(since: Date, now: Date, when: String) throws {
        let found = lock.withLock { on ? latest : nil }
        guard let found, found.at >= since else { return }
        let ago = max(0, Int((now.timeIntervalSince(found.at) * 1000).rounded()))
        throw RPCError(
            ErrorCode.personActive,
            "the person used the \(found.kind.rawValue) (\(found.device)) \(ago) ms ago, \(when)",
            hint: "wait until the person has stopped using the mouse and keyboard, then try again")
    }
}
