/// A refresh of a watcher, taken under the client's lock and run after it.
struct WatcherRefresh {
    let watcher: any KeyWatcher
    let snapshot: EvaluationSnapshot
    /// The order in which refreshes were taken.
    let number: UInt64

    func run() {
        watcher.refresh(snapshot, number: number)
    }
}
