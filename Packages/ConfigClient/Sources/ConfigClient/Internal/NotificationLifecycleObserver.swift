@_spi(Internal) @_spi(Locking) internal import ConfigModel
internal import Foundation

/// The app lifecycle as the platform's notifications tell it. Only iOS, tvOS, visionOS and watchOS
/// post them; on macOS and Linux an app keeps its connections, so this observer delivers nothing.
final class NotificationLifecycleObserver: AppLifecycleObserver, @unchecked Sendable {
    // `@unchecked`: the tokens `NotificationCenter` returns are not `Sendable`; `tokens`' lock guards them,
    // and they are only handed back to `NotificationCenter`, which is thread safe.
    #if os(iOS) || os(tvOS) || os(visionOS)
    private static let names: [(String, AppLifecycleEvent)] = [
        ("UIApplicationDidEnterBackgroundNotification", .didEnterBackground),
        ("UIApplicationWillEnterForegroundNotification", .willEnterForeground),
    ]
    #elseif os(watchOS)
    private static let names: [(String, AppLifecycleEvent)] = [
        ("WKApplicationDidEnterBackgroundNotification", .didEnterBackground),
        ("WKApplicationWillEnterForegroundNotification", .willEnterForeground),
    ]
    #else
    private static let names: [(String, AppLifecycleEvent)] = []
    #endif

    private let tokens = Locked<[any NSObjectProtocol]>([])

    func start(_ handler: @escaping @Sendable (AppLifecycleEvent) -> Void) {
        let added = Self.names.map { name, event in
            NotificationCenter.default.addObserver(forName: Notification.Name(name), object: nil, queue: nil) { _ in
                handler(event)
            }
        }
        tokens.withLock { $0 += added }
    }

    func stop() {
        let removed = tokens.withLock { tokens in
            defer { tokens = [] }
            return tokens
        }
        for token in removed { NotificationCenter.default.removeObserver(token) }
    }
}
