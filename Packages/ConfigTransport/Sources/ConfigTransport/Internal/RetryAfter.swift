internal import Foundation

/// Reads an HTTP `Retry-After` header: a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The wait a `Retry-After` value asks for, in seconds.
    /// - Parameters:
    ///   - value: The header's value.
    ///   - now: The time a date is counted from: the response's own `Date` when it has one (RFC 9110
    ///     §10.2.3), so that a device clock that is off does not change the wait; else the local time.
    /// - Returns: The wait (0 for a date in the past), or `nil` when the value is neither form.
    static func seconds(from value: String, now: Date) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Double(trimmed)
        }
        guard let date = httpDate(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// The wait the `Retry-After` of `head` asks for, in seconds, a date counted from the response's
    /// `Date` header when it reads as one, else from `localNow`.
    /// - Parameters:
    ///   - head: The response's head.
    ///   - localNow: The local time.
    /// - Returns: The wait, or `nil` when the response has no `Retry-After` that reads as one.
    static func seconds(in head: HTTPResponseHead, localNow: Date) -> Double? {
        guard let value = head.value(forHeader: "Retry-After") else { return nil }
        let sent = head.value(forHeader: "Date").flatMap { httpDate(from: $0.trimmingCharacters(in: .whitespaces)) }
        return seconds(from: value, now: sent ?? localNow)
    }

    /// The three date formats of RFC 9110 §5.6.7: IMF-fixdate, RFC 850 and asctime.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

    private static func httpDate(from text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
