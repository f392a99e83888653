import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A JSON-RPC request id: a number or a string, echoed back as it came.
public enum RequestID: Codable, Hashable, Sendable {
    case number(Int)
    case string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        }
    }
}

/// JSON-RPC 2.0 over Content-Length framed stdin/stdout. Handlers are registered before `run()`; each request
/// runs in its own Task, so a slow one (a hung app) never holds up the others; answers are written whole, one at
/// a time.
public final class Dispatcher: @unchecked Sendable {
    /// Takes the whole request message and its id, answers the encoded response.
    private typealias Handler = @Sendable (Data, RequestID) async throws -> Data

    private let input: FileHandle
    private let writer: FrameWriter
    private let lock = NSLock()
    private var handlers: [String: Handler] = [:]
    private var inFlight: [RequestID: Task<Void, Never>] = [:]

    public init(input: FileHandle = .standardInput, output: FileHandle = .standardOutput) {
        self.input = input
        self.writer = FrameWriter(output)
    }

    /// Answers `M` with `handler`. Params that do not decode as `M.Params`, or fail its `validate()`, are answered
    /// with invalid params (-32602) without calling the handler; an `RPCError` thrown by the handler becomes the
    /// error answer as it is, any other error a `failed` (-32017) one.
    public func on<M: RPCMethod>(_ method: M.Type, _ handler: @escaping @Sendable (M.Params) async throws -> M.Result) {
        on(M.name, handler)
    }

    /// The same by name, for tests of the dispatcher itself; the helper registers methods by type.
    func on<P: Decodable, R: Encodable>(
        _ method: String,
        _ handler: @escaping @Sendable (P) async throws -> R
    ) {
        let erased: Handler = { message, id in
            let params = try decodeParams(P.self, from: message)
            let result = try await handler(params)
            return try encodeJSON(ResultResponse(id: id, result: result))
        }
        lock.withLock {
            precondition(handlers[method] == nil, "\(method) is registered twice")
            handlers[method] = erased
        }
    }

    /// Sends a notification (no answer expected).
    public func notify<N: RPCNotification>(_ notification: N.Type, _ params: N.Params) {
        notify(N.name, params)
    }

    func notify<P: Encodable>(_ method: String, _ params: P) {
        do {
            writer.write(try encodeJSON(NotificationMessage(method: method, params: params)))
        } catch {
            log("cannot encode the \(method) notification: \(error)")
        }
    }

    /// Reads and dispatches messages until stdin closes or its framing breaks; blocks the calling thread.
    public func run() {
        var parser = FrameParser()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input.fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { log("cannot read stdin: errno \(errno)") }
            if count <= 0 { return }
            do {
                for message in try parser.append(Data(buffer[0..<count])) {
                    receive(message)
                }
            } catch {
                log("\(error)")
                return
            }
        }
    }

    /// Handles one message: a request in its own Task, a cancellation at once.
    func receive(_ message: Data) {
        let header: IncomingHeader
        do {
            header = try JSONDecoder().decode(IncomingHeader.self, from: message)
        } catch {
            writer.write(errorResponse(nil, RPCError(ErrorCode.parseError, "the message is not JSON-RPC: \(error)")))
            return
        }
        guard let id = header.id else {
            if header.method == "$/cancelRequest" { cancel(message) }
            return
        }
        let method = header.method
        // Registered under the lock, so the Task cannot finish (and remove itself) before it is in the table.
        lock.withLock {
            inFlight[id] = Task { [self] in
                let response = await respond(to: message, method: method, id: id)
                writer.write(response)
                lock.withLock { inFlight[id] = nil }
            }
        }
    }

    /// The encoded answer to one request.
    func respond(to message: Data, method: String?, id: RequestID) async -> Data {
        guard let method else {
            return errorResponse(id, RPCError(ErrorCode.invalidRequest, "the request names no method"))
        }
        guard let handler = lock.withLock({ handlers[method] }) else {
            return errorResponse(id, RPCError(ErrorCode.methodNotFound, "unknown method \(method)"))
        }
        do {
            return try await handler(message, id)
        } catch let error as RPCError {
            return errorResponse(id, error)
        } catch is CancellationError {
            return errorResponse(id, RPCError(ErrorCode.requestCancelled, "\(method) was cancelled"))
        } catch {
            return errorResponse(id, RPCError(ErrorCode.failed, "\(method) failed: \(error)"))
        }
    }

    /// `$/cancelRequest {id}`: cancels the request's Task; its handler stops where it checks for cancellation.
    private func cancel(_ message: Data) {
        guard let request = try? JSONDecoder().decode(CancelMessage.self, from: message) else { return }
        let task = lock.withLock { inFlight[request.params.id] }
        task?.cancel()
    }

    private func errorResponse(_ id: RequestID?, _ error: RPCError) -> Data {
        let data = ErrorData(
            hint: error.hint,
            typeInstead: error.typeInstead ? true : nil,
            notTaken: error.notTaken ? true : nil,
            kept: error.kept,
            typed: error.typed
        )
        let body = ErrorBody(code: error.code, message: error.message, data: data.isEmpty ? nil : data)
        do {
            return try encodeJSON(ErrorResponse(id: id, error: body))
        } catch {
            // Encoding strings and integers cannot fail; keep the answer well-formed all the same.
            return Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}"#.utf8)
        }
    }
}

// MARK: - Messages

private struct IncomingHeader: Decodable {
    let id: RequestID?
    let method: String?
}

private struct ParamsEnvelope<P: Decodable>: Decodable {
    let params: P?
}

private struct CancelMessage: Decodable {
    struct Params: Decodable {
        let id: RequestID
    }
    let params: Params
}

private struct ResultResponse<R: Encodable>: Encodable {
    let jsonrpc = "2.0"
    let id: RequestID
    let result: R
}

private struct ErrorData: Encodable {
    let hint: String?
    let typeInstead: Bool?
    let notTaken: Bool?
    let kept: Int?
    let typed: Int?

    var isEmpty: Bool { hint == nil && typeInstead == nil && notTaken == nil && kept == nil && typed == nil }
}

private struct ErrorBody: Encodable {
    let code: Int
    let message: String
    let data: ErrorData?
}

private struct ErrorResponse: Encodable {
    let jsonrpc = "2.0"
    let id: RequestID?
    let error: ErrorBody

    private enum CodingKeys: String, CodingKey {
        case jsonrpc, id, error
    }

    // JSON-RPC wants `"id": null` when the request's id could not be read.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonrpc, forKey: .jsonrpc)
        if let id {
            try container.encode(id, forKey: .id)
        } else {
            try container.encodeNil(forKey: .id)
        }
        try container.encode(error, forKey: .error)
    }
}

private struct NotificationMessage<P: Encodable>: Encodable {
    let jsonrpc = "2.0"
    let method: String
    let params: P
}

// MARK: - Coding

func encodeJSON<T: Encodable>(_ value: T) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return try encoder.encode(value)
}

/// The request's params as `P` (absent params read as `{}`), checked, or invalid params saying what is wrong.
func decodeParams<P: Decodable>(_ type: P.Type, from message: Data) throws -> P {
    let params: P
    do {
        let decoder = JSONDecoder()
        params = try decoder.decode(ParamsEnvelope<P>.self, from: message).params
            ?? decoder.decode(P.self, from: Data("{}".utf8))
    } catch let error as DecodingError {
        throw RPCError(ErrorCode.invalidParams, "invalid params: \(describe(error))")
    }
    try (params as? any ValidatedParams)?.validate()
    return params
}

/// A decoding error in words: where in the params, and what was wrong there.
func describe(_ error: DecodingError) -> String {
    func path(_ keys: [CodingKey]) -> String {
        let inParams = keys.first?.stringValue == "params" ? Array(keys.dropFirst()) : keys
        let parts = inParams.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
        return parts.isEmpty ? "params" : "params" + parts.joined()
    }
    switch error {
    case .keyNotFound(let key, let context):
        return "\(path(context.codingPath + [key])) is missing"
    case .valueNotFound(_, let context):
        return "\(path(context.codingPath)) is null"
    case .typeMismatch(let type, let context):
        return "\(path(context.codingPath)) is not \(typeName(type))"
    case .dataCorrupted(let context):
        return "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}

private func typeName(_ type: Any.Type) -> String {
    switch type {
    case is Int.Type, is Int32.Type: return "an integer"
    case is Double.Type: return "a number"
    case is String.Type: return "a string"
    case is Bool.Type: return "a boolean"
    default:
        let name = "\(type)"
        return name.hasPrefix("Array") ? "an array" : name.hasPrefix("Dictionary") ? "an object" : "a \(name)"
    }
}
