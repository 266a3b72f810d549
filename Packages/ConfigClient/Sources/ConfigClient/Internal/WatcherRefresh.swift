/// A refresh of a watcher, taken under the client's lock and run after it: the watcher evaluates
/// its key then, through the one evaluation path.
struct WatcherRefresh {
    let watcher: any KeyWatcher
    /// The order in which refreshes were taken.
    let number: UInt64

    func run() {
        watcher.refresh(number: number)
    }
}
