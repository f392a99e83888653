import Foundation

/// An error a handler throws to answer a request with a JSON-RPC error: `{code, message, data: {hint}}`.
public struct RPCError: Error, Equatable, Sendable {
    public let code: Int
    public let message: String
    /// What the caller can do next, in words a person can act on.
    public let hint: String?

    public init(_ code: Int, _ message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }
}

/// The error codes of src/helper-client/protocol.ts (`HelperErrorCode`) and the JSON-RPC codes the dispatcher uses.
public enum ErrorCode {
    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let requestCancelled = -32800

    public static let elementGone = -32010
    public static let appNotFound = -32011
    public static let actionFailed = -32012
    public static let valueNotSettable = -32013
    public static let notAvailable = -32014
    public static let permissionDenied = -32015
    public static let timeout = -32016
    public static let failed = -32017
    public static let personActive = -32018
}
