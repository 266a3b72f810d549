@_exported import ConfigDirector
@_exported import ConfigInspector
