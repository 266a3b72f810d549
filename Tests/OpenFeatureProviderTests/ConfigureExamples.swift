#if OpenFeature
import ConfigDirectorOpenFeatureProvider
import OpenFeature

// The provider page's Swift code blocks, verbatim, each in a function so that it compiles as written
// with the imports the page names. The ones that name no base URL would reach ConfigDirector's
// service, so they are compiled and not run; ProviderEndToEndTests checks what the page says about
// them against the emulator. The Package.swift blocks are manifests, checked by `make test-consumer`.

// "Configure and initialize the client" (ConfigDirectorSetup.swift), verbatim.
private func configureAndInitialize() async throws {
    let provider = try ConfigDirectorProvider(clientSDKKey: "YOUR-CLIENT-SDK-KEY")
    await OpenFeatureAPI.shared.setProviderAndWait(
        provider: provider,
        initialContext: ImmutableContext(targetingKey: "user-123")
    )
    let client = OpenFeatureAPI.shared.getClient()
    _ = client
}

// "Additional configuration options" (ConfigDirectorSetup.swift), verbatim.
private func metadataExample() throws -> ConfigDirectorProvider {
    let provider = try ConfigDirectorProvider(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(
            metadata: ConfigDirectorMetaContext(
                appName: "YOUR-APP-NAME",
                appVersion: "1.0.2"
            )
        )
    )
    return provider
}

// "Values kept on the device" (ConfigDirectorSetup.swift), verbatim.
private func cachingExample() throws -> ConfigDirectorProvider {
    let provider = try ConfigDirectorProvider(
        clientSDKKey: "YOUR-CLIENT-SDK-KEY",
        options: ConfigDirectorClientOptions(
            caching: CachingOptions(enabled: false)
        )
    )
    return provider
}

// "Retrieve config values" (ContentView.swift), verbatim.
private func retrieveValues(client: Client) {
    let booleanValue = client.getBooleanValue(key: "my-config-key", defaultValue: false)

    let stringValue = client.getStringValue(key: "my-string-config-key", defaultValue: "Default")
    _ = (booleanValue, stringValue)
}

// "getObjectValue" (ContentView.swift), verbatim.
private func objectValue(client: Client) -> String? {
    let settings = client.getObjectValue(key: "my-json-config-key", defaultValue: .structure([:]))
    let theme = settings.asStructure()?["theme"]?.asString()
    return theme
}

// "Update the context" (ContentView.swift), verbatim.
private func updateTheContext() async {
    await OpenFeatureAPI.shared.setEvaluationContextAndWait(
        evaluationContext: ImmutableContext(
            targetingKey: "12345",  // In OpenFeature, the targeting key represents the context's identifier
            structure: ImmutableStructure(attributes: [
                "name": .string("Example User"),
                // Any arbitrary traits which can be referenced in targeting rules
                "traits": .structure(["region": .string("North America")]),
            ])
        )
    )
}

// "Update the context" with a context kind (ContentView.swift), verbatim.
private func updateTheContextKind() async {
    await OpenFeatureAPI.shared.setEvaluationContextAndWait(
        evaluationContext: ImmutableContext(
            targetingKey: "acme",
            structure: ImmutableStructure(attributes: [
                "kind": .string("tenant"),
                "name": .string("Acme Inc."),
                "traits": .structure(["plan": .string("enterprise")]),
            ])
        )
    )
}
#endif
