@_exported import ConfigClient
@_exported import ConfigModel
@_exported import ConfigStore
@_exported import ConfigTransport
