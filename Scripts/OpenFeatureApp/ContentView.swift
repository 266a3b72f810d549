// What the provider page leaves to the reader: the view its `App` shows.
import SwiftUI

struct ContentView: View {
    var body: some View {
        DarkModeToggle()
    }
}
