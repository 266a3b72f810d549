/// A raw connection that could not be made; the text names the failed call.
enum RawConnectionError: Error {
    case failed(String)
}
