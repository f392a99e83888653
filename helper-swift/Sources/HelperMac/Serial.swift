#if canImport(ApplicationServices)
import Foundation
import HelperCore

/// Runs async operations one at a time, in the order they were submitted. An actor alone would not do: it lets
/// another call in at every `await`, so two requests' input events could interleave.
actor SerialQueue {
    private var tail: Task<Void, Never>?

    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let previous = tail
        let task = Task {
            await previous?.value
            try Task.checkCancellation()
            return try await operation()
        }
        tail = Task { _ = await task.result }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}

/// Answers with the operation's result, or with a timeout error once `seconds` have passed, whichever comes first.
/// An operation still running at the deadline is left to finish on its own, unawaited.
func withDeadline<T: Sendable>(
    seconds: Double,
    _ timeout: RPCError,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let answer = FirstAnswer(continuation)
        let timer = Task {
            do {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            } catch {
                return
            }
            answer.resume(with: .failure(timeout))
        }
        Task {
            let result: Result<T, Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            timer.cancel()
            answer.resume(with: result)
        }
    }
}

/// A continuation resumed by whichever of two tasks answers first; the later answer is dropped.
private final class FirstAnswer<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Error>?

    init(_ continuation: CheckedContinuation<T, Error>) {
        self.continuation = continuation
    }

    func resume(with result: Result<T, Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<T, Error>? in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: result)
    }
}

/// Sleeps `milliseconds`; throws CancellationError when the request is cancelled meanwhile.
func pause(milliseconds: Double) async throws {
    guard milliseconds > 0 else { return }
    try await Task.sleep(nanoseconds: UInt64(milliseconds * 1_000_000))
}
#endif
