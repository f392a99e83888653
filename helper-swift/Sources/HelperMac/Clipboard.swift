#if canImport(ApplicationServices)
import AppKit
import HelperCore

/// clipboard.*: the general pasteboard. Types are reported as the pasteboard has them (UTIs such as
/// "public.utf8-plain-text"). Contents are never logged. One exchange at a time: a write is two calls
/// (clear, then set) that a read must not fall between.
enum Clipboard {
    private static let queue = SerialQueue()

    static func read() async throws -> ClipboardReadResult {
        try await queue.run {
            let pasteboard = NSPasteboard.general
            let types = (pasteboard.types ?? []).map(\.rawValue)
            return ClipboardReadResult(text: pasteboard.string(forType: .string), types: types)
        }
    }

    static func write(_ p: ClipboardWriteParams) async throws -> Empty {
        try await queue.run {
            let pasteboard = NSPasteboard.general
            pasteboard.clearContents()
            guard pasteboard.setString(p.text, forType: .string) else {
                throw RPCError(ErrorCode.failed, "the pasteboard refused the text", hint: "try again")
            }
            return Empty()
        }
    }

    static func clear() async throws -> Empty {
        try await queue.run {
            NSPasteboard.general.clearContents()
            return Empty()
        }
    }

    /// clipboard.watch: the pasteboard posts no notification when it changes, so its changeCount is compared
    /// every `watchInterval` on the main run loop; each change sends `clipboard.changed`, never the contents.
    @MainActor static func watch(_ dispatcher: Dispatcher) -> Empty {
        guard watcher == nil else { return Empty() }
        var seen = NSPasteboard.general.changeCount
        let timer = Timer(timeInterval: watchInterval, repeats: true) { _ in
            let now = NSPasteboard.general.changeCount
            guard now != seen else { return }
            seen = now
            dispatcher.notify(ClipboardChanged.self, Empty())
        }
        RunLoop.main.add(timer, forMode: .common)
        watcher = timer
        return Empty()
    }

    private static let watchInterval: TimeInterval = 0.25
    @MainActor private static var watcher: Timer?
}
#endif
