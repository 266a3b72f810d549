@_spi(Internal) public import ConfigTransport
public import TestSupport

/// The manual clock is the clock the transports and the client wait on in tests.
@_spi(Testing) extension ManualClock: TransportClock {}
