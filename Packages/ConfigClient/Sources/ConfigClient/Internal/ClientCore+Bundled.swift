@_spi(Internal) internal import ConfigModel

extension ClientCore {
    /// Serves the bundled values of a client just created: they are what it holds until values kept on
    /// the device or live values replace them. The client stays not ready.
    func serveBundled(_ set: ConfigSet) {
        state.withLockAndStripes { state, _ in
            guard !state.isClosed, state.source == .none else { return }
            _ = state.table.apply(set, isReceived: false)
            state.source = .bundledValues
        }
    }
}
