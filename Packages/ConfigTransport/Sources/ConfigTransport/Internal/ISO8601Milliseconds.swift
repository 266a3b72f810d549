internal import Foundation

/// Writes dates as telemetry needs them: ISO 8601, UTC, with milliseconds (`2026-09-01T12:00:00.123Z`).
enum ISO8601Milliseconds {
    /// The date's text, to the microsecond rounded and then to the millisecond rounded down.
    /// - Parameter date: The date.
    /// - Returns: Such as `2026-09-01T12:00:00.123Z`.
    static func string(from date: Date) -> String {
        // Rounding to microseconds first keeps `x.123` (stored as x.12299999…) at 123 ms.
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let milliseconds = Int64((microseconds / 1000).rounded(.down))
        let millisecondsPerDay: Int64 = 86_400_000
        var days = milliseconds / millisecondsPerDay
        var remainder = milliseconds % millisecondsPerDay
        if remainder < 0 {
            days -= 1
            remainder += millisecondsPerDay
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        let second = remainder / 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(second / 3600, 2) + ":"
            + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2) + "." + pad(remainder % 1000, 3) + "Z"
    }

    /// The proleptic Gregorian date of a day count, after Howard Hinnant's `civil_from_days`.
    private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSince1970 + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
