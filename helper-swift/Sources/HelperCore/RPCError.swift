import Foundation

/// An error a handler throws to answer a request with a JSON-RPC error:
/// `{code, message, data: {hint, typeInstead, notTaken, kept, typed}}` (protocol.ts's HelperErrorData; false flags left out).
public struct RPCError: Error, Equatable, Sendable {
    public let code: Int
    public let message: String
    /// What the caller can do next, in words a person can act on.
    public let hint: String?
    /// ax.setValue: the field is editable but takes no text through accessibility; the server types it.
    public let typeInstead: Bool
    /// ax.setValue: the control does not take this value (an option it lacks, a number beyond its range).
    public let notTaken: Bool
    /// ax.setValue: a field with a length limit kept this many characters of the text's start.
    public let kept: Int?
    /// input.type cancelled: how many characters were typed before it stopped.
    public let typed: Int?

    public init(
        _ code: Int,
        _ message: String,
        hint: String? = nil,
        typeInstead: Bool = false,
        notTaken: Bool = false,
        kept: Int? = nil,
        typed: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.hint = hint
        self.typeInstead = typeInstead
        self.notTaken = notTaken
        self.kept = kept
        self.typed = typed
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
