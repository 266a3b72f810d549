@_spi(Internal) public import ConfigModel
@_spi(Internal) public import ConfigTransport
public import Foundation

/// The seams of a client that tests and the SDK's own products replace: the connection, the
/// telemetry destination, the app lifecycle, the clock and the SDK's wire name.
@_spi(Testing)
public struct ClientEnvironment: Sendable {
    /// Where telemetry goes.
    public enum Telemetry: Sendable {
        /// To ConfigDirector's telemetry endpoint.
        case service
        /// To a sink of the caller's.
        case sink(any TelemetrySink)
        /// Nowhere: no evaluation is recorded.
        case disabled
    }

    /// The `sdkName` sent in `metaContext`.
    public var sdkName: String
    /// The transports' maker; `nil` for HTTP streaming or polling as the options say. A client given one is a
    /// test client: its crash-loop safe mode is off unless ``SafeModeOptions/directory`` names its folder.
    public var transportFactory: (any TransportFactory)?
    /// Where telemetry goes.
    public var telemetry: Telemetry
    /// What tells the client about the app's background and foreground.
    public var lifecycleObserver: any AppLifecycleObserver
    /// The clock that timeouts and telemetry flushes wait on.
    public var clock: any TransportClock
    /// The process's launch arguments, where local overrides may be given.
    public var arguments: [String]
    /// The process's environment, where local overrides may be given.
    public var environmentVariables: [String: String]

    /// Creates an environment; the defaults are what apps get.
    /// - Parameters:
    ///   - sdkName: The `sdkName` sent; `swift-client-sdk` by default.
    ///   - transportFactory: The transports' maker; `nil` for HTTP.
    ///   - telemetry: Where telemetry goes; the service by default.
    ///   - lifecycleObserver: The app lifecycle; the platform's notifications by default.
    ///   - clock: The clock; real time by default.
    ///   - arguments: The launch arguments; the process's by default.
    ///   - environmentVariables: The environment; the process's by default.
    public init(
        sdkName: String = ConfigDirectorSDK.clientSDKName,
        transportFactory: (any TransportFactory)? = nil,
        telemetry: Telemetry = .service,
        lifecycleObserver: (any AppLifecycleObserver)? = nil,
        clock: any TransportClock = SystemTransportClock(),
        arguments: [String] = ProcessInfo.processInfo.arguments,
        environmentVariables: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.arguments = arguments
        self.environmentVariables = environmentVariables
        self.sdkName = sdkName
        self.transportFactory = transportFactory
        self.telemetry = telemetry
        self.lifecycleObserver = lifecycleObserver ?? NotificationLifecycleObserver()
        self.clock = clock
    }
}
