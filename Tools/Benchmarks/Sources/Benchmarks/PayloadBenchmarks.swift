import AllocCounter
@_spi(Internal) @_spi(Testing) import ConfigClient
@_spi(Internal) import ConfigModel
@_spi(Internal) import ConfigStore
@_spi(Testing) import ConfigTesting
import Foundation
import ModelTestSupport

/// The wire payload of a full set of `count` configs of mixed types, about 150 bytes each.
func fullSetPayload(count: Int) -> String {
    var entries: [String] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
        let key = String(format: "config-key-%05d", index)
        let entry: String
        switch index % 4 {
        case 0: entry = #""type":"boolean","value":\#(index % 3 == 0)"#
        case 1: entry = #""type":"integer","value":\#(index * 7)"#
        case 2: entry = #""type":"string","value":"a served string value for config number \#(index)""#
        default: entry = #""type":"json","value":"{\"limit\":\#(index),\"enabled\":true}""#
        }
        entries.append(
            #""\#(key)":{"id":"cfg_\#(String(format: "%08d", index))","key":"\#(key)",\#(entry),"valueId":"v_\#(index)"}"#
        )
    }
    return
        #"{"environmentId":"env_1","projectId":"project_1","kind":"full","timestamp":"2026-01-01T00:00:00.000Z","configs":{"#
        + entries.joined(separator: ",") + "}}"
}

/// 3. Decoding a full set of 10,000 configs (as the transports do) and applying it to a table.
func benchmarkDecodeAndApply() async {
    let payload = fullSetPayload(count: 10_000)
    let payloadBytes = payload.utf8.count
    print("\n== 3. Decode and apply a full set of 10,000 configs (\(megabytes(Int64(payloadBytes))))")
    func decodeAndApply() -> ConfigStateTable {
        var table = ConfigStateTable()
        // As the transports decode a payload: the bytes received, then `ConfigSet(jsonBytes:)`.
        let set = try! ConfigSet(jsonBytes: Data(payload.utf8))!
        table.apply(set)
        return table
    }
    precondition(decodeAndApply().configs.count == 10_000)
    let (baseline, subject) = compare(
        operations: 1,
        budgetSeconds: isQuick ? 4 : 20,
        minimumSamples: 10,
        baseline: { blackHole(try! JSONSerialization.jsonObject(with: Data(payload.utf8))) },
        subject: { blackHole(decodeAndApply()) }
    )
    printComparison(
        "decode",
        baseline: ("JSONSerialization.jsonObject", baseline),
        subject: ("ConfigSet(jsonBytes:) + apply", subject)
    )
    let liveBefore = alloc_counter_live_bytes()
    alloc_counter_reset_peak()
    // What the table holds is what releasing it frees: memory freed meanwhile by earlier samples does
    // not count against it. `withExtendedLifetime` keeps the optimizer from releasing it earlier.
    var liveWithTable: Int64 = 0
    var peak: Int64 = 0
    do {
        let table = decodeAndApply()
        withExtendedLifetime(table) {
            peak = alloc_counter_peak_bytes() - liveBefore
            liveWithTable = alloc_counter_live_bytes()
        }
    }
    let kept = liveWithTable - alloc_counter_live_bytes()
    let ratio = Double(peak) / Double(payloadBytes)
    print(
        "  peak extra heap: \(megabytes(peak)) (\(String(format: "%.2f", ratio))× the payload);"
            + " the table kept: \(megabytes(kept))"
    )
    report.figure("decode.payload_bytes", Double(payloadBytes))
    report.figure("decode.peak_extra_bytes", Double(peak))
    report.figure("decode.table_bytes", Double(kept))
    await measureClientTable(payload: payload)
    await measureSafeModeApply(payload: payload)
    report.target("decode.time", "decode and apply under 50 ms (median)", pass: subject.median < 50e6)
    report.target(
        "decode.memory",
        "peak extra memory under 3× the payload",
        pass: allocationCountingWorks && ratio < 3
    )
}

/// What crash-loop safe mode adds to a client's apply of the full set (issue 44): the fingerprint of every config,
/// and the record written (with its `fsync`) for each new set, which goes on trial. Each apply serves a set whose
/// values all changed, alternately two sets, against the same client with safe mode off. Printed, with no target.
private func measureSafeModeApply(payload: String) async {
    let first = try! ConfigSet(jsonBytes: Data(payload.utf8))!
    var second = first
    for (key, state) in first.configs {
        var changed = state
        changed.value = (state.value ?? "") + "-2"
        second.configs[key] = changed
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-safe-mode-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    func medianApply(safeMode: SafeModeOptions) async -> Double {
        let served = await ServedClient.make(initial: first, telemetry: false, safeMode: safeMode)
        defer { served.client.close() }
        var samples: [Double] = []
        for round in 0..<(isQuick ? 10 : 30) {
            let start = nowNanoseconds()
            served.server.serve(round % 2 == 0 ? second : first)
            samples.append(Double(nowNanoseconds() - start))
        }
        return samples.sorted()[samples.count / 2]
    }
    let off = await medianApply(safeMode: .disabled)
    let on = await medianApply(safeMode: SafeModeOptions(directory: folder))
    print(
        String(
            format: "  an apply of the full set by a client: %.2f ms with safe mode off, %.2f ms on (median)",
            off / 1e6, on / 1e6))
    report.figure("decode.apply_safe_mode_off_ms", off / 1e6)
    report.figure("decode.apply_safe_mode_on_ms", on / 1e6)
}

/// What a ready client holds for a full set beyond the decoded set itself (which its table shares):
/// the index an evaluation looks keys up in, against a client holding an empty set. Printed, with no target.
private func measureClientTable(payload: String) async {
    let set = try! ConfigSet(jsonBytes: Data(payload.utf8))!
    func heldBytes(for initial: ConfigSet) async -> Int64 {
        let liveBefore = alloc_counter_live_bytes()
        let served = await ServedClient.make(initial: initial, telemetry: true)
        let held = alloc_counter_live_bytes() - liveBefore
        served.client.close()
        return held
    }
    let empty = await heldBytes(for: ConfigSet(kind: .full, configs: [:]))
    let full = await heldBytes(for: set)
    print(
        "  a client holding the set: \(megabytes(full - empty)) beyond the decoded set (an empty client: \(megabytes(empty)))"
    )
    report.figure("decode.client_index_bytes", Double(full - empty))
}

/// 7. Cold start: reading, decoding and applying a kept entry of 1,000 configs.
func benchmarkColdStart() async {
    print("\n== 7. Cold start from kept values: 1,000 configs")
    let set = try! JSONDecoder().decode(ConfigSet.self, from: Data(fullSetPayload(count: 1_000).utf8))
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cd-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let provider = FileCachingProvider(clientSDKKey: "bench-key", directory: directory, sizeLimit: 16 * 1_048_576)
    let context = ConfigDirectorContext(id: "user-1")
    let writer = KeptValuesStore(
        clientSDKKey: "bench-key",
        options: CachingOptions(provider: provider),
        logger: SilentLogger()
    )
    writer.save(set, for: context)
    await writer.close()
    guard let entry = try? provider.read() else {
        print("  the kept entry was not written")
        report.target("coldStart", "read, decode and apply under 10 ms", pass: false)
        return
    }
    print("  kept entry: \(megabytes(Int64(entry.utf8.count)))")

    let (baseline, subject) = await compareAsync(
        budgetSeconds: isQuick ? 3 : 10,
        baseline: { blackHole(try! JSONSerialization.jsonObject(with: Data(try! provider.read()!.utf8))) },
        subject: {
            // A new store, as at launch: it reads the file, decodes the entry and checks it.
            let store = KeptValuesStore(
                clientSDKKey: "bench-key",
                options: CachingOptions(provider: provider),
                logger: SilentLogger()
            )
            guard let kept = await store.load(for: context) else { fatalError("the kept entry did not load") }
            var table = ConfigStateTable()
            table.apply(kept)
            precondition(table.configs.count == 1_000)
            blackHole(table)
        }
    )
    printComparison(
        "coldStart",
        baseline: ("file read + JSONSerialization", baseline),
        subject: ("KeptValuesStore.load + apply", subject)
    )
    report.target("coldStart", "read, decode and apply under 10 ms (median)", pass: subject.median < 10e6)
}
