import ConfigDirector

// README, "Bundled values".
func bundledClient() throws -> ConfigDirectorClient {
    let client = try ConfigDirectorClient(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(bundledValues: .resource(named: "configdirector-defaults"))
    )
    return client
}
