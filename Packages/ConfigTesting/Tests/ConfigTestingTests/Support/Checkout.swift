@_spi(Internal) import ConfigClient

/// The code under test of the documented example: a checkout that reads the `new-checkout` flag.
struct Checkout {
    let client: ConfigDirectorClient

    var isNewCheckoutEnabled: Bool {
        client.value(for: "new-checkout", default: false)
    }
}
