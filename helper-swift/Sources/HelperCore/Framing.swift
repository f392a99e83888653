import Foundation

/// Splits a byte stream into `Content-Length: N\r\n\r\n` + N-byte messages, whatever the chunking of the reads.
public struct FrameParser {
    private var buffer = Data()
    private static let separator = Data("\r\n\r\n".utf8)

    public init() {}

    /// Adds bytes read from the pipe and returns every message they complete, in order.
    /// Throws on a header without a valid Content-Length: the stream cannot be resynchronized after that.
    public mutating func append(_ bytes: Data) throws -> [Data] {
        buffer.append(bytes)
        var messages: [Data] = []
        while let headerEnd = buffer.range(of: Self.separator) {
            let header = String(decoding: buffer[buffer.startIndex..<headerEnd.lowerBound], as: UTF8.self)
            let length = try Self.contentLength(in: header)
            guard buffer.distance(from: headerEnd.upperBound, to: buffer.endIndex) >= length else { break }
            let bodyEnd = buffer.index(headerEnd.upperBound, offsetBy: length)
            messages.append(Data(buffer[headerEnd.upperBound..<bodyEnd]))
            buffer = Data(buffer[bodyEnd...])
        }
        return messages
    }

    static func contentLength(in header: String) throws -> Int {
        for line in header.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard name.caseInsensitiveCompare("Content-Length") == .orderedSame else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard let length = Int(value), length >= 0 else { throw FramingError.badContentLength(value) }
            return length
        }
        throw FramingError.missingContentLength(header)
    }
}

public enum FramingError: Error, Equatable, CustomStringConvertible {
    case missingContentLength(String)
    case badContentLength(String)

    public var description: String {
        switch self {
        case .missingContentLength(let header): return "a message header without Content-Length: \(header)"
        case .badContentLength(let value): return "a Content-Length that is not a byte count: \(value)"
        }
    }
}

/// One framed message: the header (its length in UTF-8 bytes) and the body.
public func frame(_ body: Data) -> Data {
    var framed = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
    framed.append(body)
    return framed
}

/// Writes framed messages to one handle, one whole message at a time from any thread.
public final class FrameWriter: @unchecked Sendable {
    private let output: FileHandle
    private let lock = NSLock()

    public init(_ output: FileHandle) {
        self.output = output
    }

    public func write(_ body: Data) {
        let framed = frame(body)
        lock.lock()
        defer { lock.unlock() }
        do {
            try output.write(contentsOf: framed)
        } catch {
            // The reader is gone; the helper exits when its stdin closes, which follows.
            log("cannot write a message: \(error)")
        }
    }
}

/// A line on stderr: the only place for anything that is not protocol.
public func log(_ message: String) {
    FileHandle.standardError.write(Data("macpilot-helper: \(message)\n".utf8))
}
