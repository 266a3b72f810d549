@_spi(Internal) internal import ConfigModel

extension ConfigSet {
    /// This set with a newer one applied on top, as one set: a full set supersedes it whole; a delta merges into
    /// it key by key (the newer config winning), keeping its kind.
    func superseded(by newer: ConfigSet) -> ConfigSet {
        guard newer.kind == .delta else { return newer }
        var merged = self
        merged.configs.merge(newer.configs) { _, new in new }
        merged.timestamp = newer.timestamp ?? timestamp
        merged.environmentID = newer.environmentID ?? environmentID
        merged.projectID = newer.projectID ?? projectID
        return merged
    }
}
