@_spi(Internal) public import ConfigModel
public import Foundation

/// A streaming client connected to the emulator.
public struct EmulatorStream: Sendable, Hashable, Codable {
    /// The stream's number, unique within one emulator.
    public var id: Int
    /// The context the client sent.
    public var context: ConfigDirectorContext
    /// The `Last-Event-ID` the client sent, if any.
    public var lastEventID: String?
    /// When the stream opened.
    public var openedAt: Date

    /// Creates a stream description.
    /// - Parameters:
    ///   - id: The stream's number.
    ///   - context: The client's context.
    ///   - lastEventID: The `Last-Event-ID` sent.
    ///   - openedAt: When it opened.
    public init(id: Int, context: ConfigDirectorContext, lastEventID: String?, openedAt: Date) {
        self.id = id
        self.context = context
        self.lastEventID = lastEventID
        self.openedAt = openedAt
    }
}
