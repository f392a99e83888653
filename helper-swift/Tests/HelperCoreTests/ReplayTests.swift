import Foundation
import XCTest
import HelperCore

/// Replays what the Linux helper really exchanged with the server in the contract tests
/// (test/fixtures/protocol/linux-helper.jsonl, made by `npm run record:protocol`): every params decodes as its
/// method's `Params` (and passes its validation), every result as its `Result`, every notification as its
/// `Params`, and each encodes back to the same JSON. Params that protocol.ts's schema refuses (`malformed`: the
/// contract tests send some on purpose) must be refused here too. With MACPILOT_REPLAY_OUT set, the re-encodings are written
/// there for test/swift/replay.test.ts to check against protocol.ts's schemas.
final class ReplayTests: XCTestCase {
    private static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("test/fixtures/protocol/linux-helper.jsonl")

    func testEveryRecordedExchangeDecodesAndEncodesUnchanged() throws {
        let lines = try String(contentsOf: Self.fixture, encoding: .utf8).split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 0)
        var reencoded: [String] = []
        for (index, line) in lines.enumerated() {
            let exchange = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "line \(index + 1) is not a JSON object"
            )
            var out: [String: Any] = [:]
            if let name = exchange["notification"] as? String {
                guard let notification = allNotifications.first(where: { $0.name == name }) else {
                    XCTFail("line \(index + 1): \(name) is not one of HelperCore's notifications")
                    continue
                }
                out["notification"] = name
                out["params"] = try notified(notification, exchange["params"], "line \(index + 1) \(name)")
            } else {
                let name = try XCTUnwrap(exchange["method"] as? String, "line \(index + 1) names no method")
                guard let method = allMethods.first(where: { $0.name == name }) else {
                    XCTFail("line \(index + 1): \(name) is not one of HelperCore's methods")
                    continue
                }
                out = try replay(method, exchange, "line \(index + 1) \(name)")
                out["method"] = name
            }
            let data = try JSONSerialization.data(withJSONObject: out, options: [.sortedKeys])
            reencoded.append(String(decoding: data, as: UTF8.self))
        }
        if let path = ProcessInfo.processInfo.environment["MACPILOT_REPLAY_OUT"] {
            try (reencoded.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    private func notified<N: RPCNotification>(_ notification: N.Type, _ params: Any?, _ at: String) throws -> Any {
        try check(N.Params.self, params, at)
    }

    private func replay<M: RPCMethod>(_ method: M.Type, _ exchange: [String: Any], _ at: String) throws -> [String: Any] {
        if exchange["malformed"] as? Bool == true {
            XCTAssertThrowsError(
                try decodeParams(M.Params.self, exchange["params"]),
                "\(at): protocol.ts refuses these params, \(M.Params.self) accepts them"
            )
            return ["params": exchange["params"] ?? NSNull(), "error": exchange["error"] ?? NSNull(), "malformed": true]
        }
        var out: [String: Any] = ["params": try check(M.Params.self, exchange["params"], "\(at) params")]
        if let result = exchange["result"] {
            out["result"] = try check(M.Result.self, result, "\(at) result")
        } else {
            out["error"] = exchange["error"]
        }
        return out
    }

    /// Decodes `json` as `T` (validating params), encodes it again, and checks that nothing changed.
    private func check<T: Codable>(_ type: T.Type, _ json: Any?, _ at: String) throws -> Any {
        let original = json ?? [String: Any]()
        let decoded: T
        do {
            decoded = try decodeParams(T.self, original)
        } catch {
            XCTFail("\(at): \(T.self) refuses what the Linux helper exchanged: \(error)")
            return original
        }
        let again = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(decoded), options: [.fragmentsAllowed])
        if let difference = Self.difference(original, again, at) {
            XCTFail("\(at): \(T.self) does not encode back what it decoded: \(difference)")
        }
        return again
    }

    /// `json` decoded as `T`, and validated when `T` is validated params.
    private func decodeParams<T: Decodable>(_ type: T.Type, _ json: Any?) throws -> T {
        let data = try JSONSerialization.data(withJSONObject: json ?? [String: Any](), options: [.fragmentsAllowed])
        let decoded = try JSONDecoder().decode(T.self, from: data)
        try (decoded as? ValidatedParams)?.validate()
        return decoded
    }

    /// Where two JSON values differ, or nil when they are the same.
    static func difference(_ a: Any, _ b: Any, _ path: String) -> String? {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            for key in Set(a.keys).union(b.keys).sorted() {
                guard let left = a[key] else { return "\(path).\(key) appears only after re-encoding" }
                guard let right = b[key] else { return "\(path).\(key) is lost (\(left))" }
                if let found = difference(left, right, "\(path).\(key)") { return found }
            }
            return nil
        case let (a as [Any], b as [Any]):
            guard a.count == b.count else { return "\(path) has \(a.count) items, then \(b.count)" }
            for (i, (left, right)) in zip(a, b).enumerated() {
                if let found = difference(left, right, "\(path)[\(i)]") { return found }
            }
            return nil
        case let (a as NSObject, b as NSObject):
            return a.isEqual(b) ? nil : "\(path) was \(a), then \(b)"
        default:
            return "\(path) was \(a), then \(b)"
        }
    }
}
