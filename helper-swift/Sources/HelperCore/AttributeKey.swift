import Foundation

/// An attribute of a platform object (an AX element) by name, with the type its value is read as: a key typed
/// `AttributeKey<String>` cannot be read as a number. Reading keeps the native layer's contract: an attribute the
/// object lacks, or whose value has another type, reads as nil; failures are the reader's to throw.
public struct AttributeKey<Value>: Sendable {
    public let name: String
    private let decoder: @Sendable (AnyObject) -> Value?

    public init(_ name: String, _ decoder: @escaping @Sendable (AnyObject) -> Value?) {
        self.name = name
        self.decoder = decoder
    }

    /// The value as this key's type, or nil when absent or of another type.
    public func decode(_ raw: AnyObject?) -> Value? {
        raw.flatMap(decoder)
    }
}

extension AttributeKey where Value == String {
    public static func string(_ name: String) -> AttributeKey { AttributeKey(name) { $0 as? String } }
}

extension AttributeKey where Value == Bool {
    /// A boolean: the native layer hands booleans over as numbers.
    public static func bool(_ name: String) -> AttributeKey { AttributeKey(name) { ($0 as? NSNumber)?.boolValue } }
}

extension AttributeKey where Value == Double {
    public static func number(_ name: String) -> AttributeKey { AttributeKey(name) { ($0 as? NSNumber)?.doubleValue } }
}

extension Dictionary where Key == String, Value == AnyObject {
    /// A batched read's value for `key`, typed.
    public subscript<T>(key: AttributeKey<T>) -> T? {
        key.decode(self[key.name])
    }
}
